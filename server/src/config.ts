import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { RECORD_QUOTAS, type RecordQuotas } from './lib/quotas.js';

/**
 * SQLite's `synchronous` pragma (in WAL mode). NORMAL, the default, keeps every committed transaction across a crash
 * of the process (kill -9); a power loss or OS crash can lose the last transactions, never the file's integrity.
 * FULL syncs the WAL on every commit, so those survive too, at the cost of one fsync per write.
 */
export type SqliteSynchronous = 'NORMAL' | 'FULL';

export type DatabaseConfig =
  | { kind: 'sqlite'; file: string; synchronous?: SqliteSynchronous }
  | { kind: 'postgres'; url: string; schema?: string };

export interface RateLimitConfig {
  /** Requests per minute per IP across the API. */
  globalPerMinute: number;
  /** Login, registration and password-reset requests per minute per IP. */
  authPerMinute: number;
  /** Failed logins per account inside the window before it answers 429. */
  loginFailuresPerAccount: number;
  loginFailureWindowMs: number;
  /** 'memory' keeps IP counters per process; 'database' shares them between instances through the database. */
  store: 'memory' | 'database';
}

export interface AppConfig {
  host: string;
  port: number;
  dataDir: string;
  database: DatabaseConfig;
  jwtSecret: string;
  tokenTtlSeconds: number;
  corsOrigins: string[];
  smtpUrl: string | undefined;
  mailFrom: string;
  appUrl: string;
  logLevel: string;
  trustProxy: boolean;
  /** log2 of the scrypt cost N. OWASP's 2^17 in production; tests lower it to stay fast. */
  passwordHashCost: number;
  rateLimit: RateLimitConfig;
  requestTimeoutMs: number;
  bodyLimitBytes: number;
  icsUploadLimitBytes: number;
  /** Records one account may keep (tests lower them instead of inserting 20,000 rows). */
  quotas: RecordQuotas;
}

export const PRODUCTION_PASSWORD_HASH_COST = 17;

function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

export function databaseConfigFrom(
  databaseUrl: string | undefined,
  dataDir: string,
  sqliteSynchronous?: string,
): DatabaseConfig {
  if (databaseUrl && databaseUrl.trim() !== '') {
    if (!isPostgresUrl(databaseUrl)) {
      throw new Error(
        'DATABASE_URL must be a postgres:// URL; leave it unset to use the SQLite file under DATA_DIR',
      );
    }
    return { kind: 'postgres', url: databaseUrl };
  }
  const file = path.join(dataDir, 'time-wallet.sqlite');
  const synchronous = sqliteSynchronous?.trim().toUpperCase();
  if (!synchronous) return { kind: 'sqlite', file };
  if (synchronous !== 'NORMAL' && synchronous !== 'FULL') {
    throw new Error("SQLITE_SYNCHRONOUS must be 'NORMAL' or 'FULL'");
  }
  return { kind: 'sqlite', file, synchronous };
}

/** The secret stays on disk so tokens survive restarts; several instances must share JWT_SECRET instead. */
export function readOrCreateJwtSecret(dataDir: string): string {
  const file = path.join(dataDir, 'jwt-secret');
  try {
    const existing = readFileSync(file, 'utf8').trim();
    if (existing.length >= 32) return existing;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}

function integerFrom(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value.trim() === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`${name} must be a non-negative integer`);
  return parsed;
}

export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  givenOverrides: Partial<AppConfig> = {},
): AppConfig {
  // An override that is present but undefined keeps the default instead of erasing it.
  const overrides = Object.fromEntries(
    Object.entries(givenOverrides).filter(([, value]) => value !== undefined),
  ) as Partial<AppConfig>;
  const dataDir = overrides.dataDir ?? path.resolve(env.DATA_DIR ?? path.join(process.cwd(), 'data'));
  const database =
    overrides.database ?? databaseConfigFrom(env.DATABASE_URL, dataDir, env.SQLITE_SYNCHRONOUS);
  const jwtSecret = overrides.jwtSecret ?? (env.JWT_SECRET?.trim() || readOrCreateJwtSecret(dataDir));
  if (jwtSecret.length < 32) throw new Error('JWT_SECRET must be at least 32 characters');
  const rateLimitStore = env.RATE_LIMIT_STORE ?? (database.kind === 'postgres' ? 'database' : 'memory');
  if (rateLimitStore !== 'memory' && rateLimitStore !== 'database') {
    throw new Error("RATE_LIMIT_STORE must be 'memory' or 'database'");
  }
  return {
    host: env.HOST ?? '127.0.0.1',
    port: integerFrom(env.PORT, 4000, 'PORT'),
    corsOrigins: (env.CORS_ORIGINS ?? 'http://localhost:3000')
      .split(',')
      .map((origin) => origin.trim())
      .filter((origin) => origin.length > 0),
    smtpUrl: env.SMTP_URL?.trim() || undefined,
    mailFrom: env.MAIL_FROM ?? 'Time Wallet <no-reply@time-wallet.local>',
    appUrl: (env.APP_URL ?? 'http://localhost:3000').replace(/\/+$/, ''),
    logLevel: env.LOG_LEVEL ?? 'info',
    trustProxy: env.TRUST_PROXY === 'true',
    tokenTtlSeconds: integerFrom(env.TOKEN_TTL_SECONDS, 7 * 24 * 3600, 'TOKEN_TTL_SECONDS'),
    passwordHashCost: PRODUCTION_PASSWORD_HASH_COST,
    requestTimeoutMs: 30_000,
    bodyLimitBytes: 100 * 1024,
    icsUploadLimitBytes: 1024 * 1024,
    quotas: RECORD_QUOTAS,
    ...overrides,
    rateLimit: {
      globalPerMinute: integerFrom(env.RATE_LIMIT_PER_MINUTE, 600, 'RATE_LIMIT_PER_MINUTE'),
      authPerMinute: integerFrom(env.AUTH_RATE_LIMIT_PER_MINUTE, 20, 'AUTH_RATE_LIMIT_PER_MINUTE'),
      loginFailuresPerAccount: 5,
      loginFailureWindowMs: 15 * 60_000,
      store: rateLimitStore,
      ...overrides.rateLimit,
    },
    dataDir,
    database,
    jwtSecret,
  };
}
