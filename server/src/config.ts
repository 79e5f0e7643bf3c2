import { createECDH, randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { webPush } from './lib/packages-loaded-on-use.js';
import { RECORD_QUOTAS, type RecordQuotas } from './lib/quotas.js';
import { TRASH_LIMITS, type TrashLimits } from './plugins/app/trash-repository.js';

/**
 * SQLite's `synchronous` pragma (in WAL mode). NORMAL, the default, keeps every committed transaction across a crash
 * of the process (kill -9); a power loss or OS crash can lose the last transactions, never the file's integrity.
 * FULL syncs the WAL on every commit, so those survive too, at the cost of one fsync per write.
 */
export type SqliteSynchronous = 'NORMAL' | 'FULL';

/** Bounds on the PostgreSQL pool, so a slow or vanished database makes requests fail fast instead of piling up. */
export interface PostgresPoolConfig {
  /** Connections per process. */
  max: number;
  /** How long a request waits for a free connection (or a new one to open) before it answers 503. */
  connectionTimeoutMs: number;
  /** PostgreSQL's statement_timeout and idle_in_transaction_session_timeout for the API's connections. */
  statementTimeoutMs: number;
}

export type DatabaseConfig =
  | { kind: 'sqlite'; file: string; synchronous?: SqliteSynchronous }
  | { kind: 'postgres'; url: string; schema?: string };

export interface RateLimitConfig {
  /** Requests per minute per IP across the API. */
  globalPerMinute: number;
  /** Login, registration and password-reset requests per minute per IP. */
  authPerMinute: number;
  /** Health checks per minute per IP, counted apart so probes and API traffic never crowd each other out. */
  healthPerMinute: number;
  /**
   * Failed password checks (sign-in, account deletion, password change) per account and source address inside the
   * window, which starts at the first of them; the next attempt answers 429 until the window ends.
   */
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
  /** Minutes without a request after which a session ends; the shell's inactivity sign-out uses the same number. */
  sessionIdleMinutes: number;
  postgresPool: PostgresPoolConfig;
  corsOrigins: string[];
  smtpUrl: string | undefined;
  mailFrom: string;
  appUrl: string;
  logLevel: string;
  /** Fastify's trustProxy: false, how many proxies stand in front of the API, or their addresses and ranges. */
  trustProxy: false | number | string[];
  /** log2 of the scrypt cost N. OWASP's 2^17 in production; tests lower it to stay fast. */
  passwordHashCost: number;
  rateLimit: RateLimitConfig;
  requestTimeoutMs: number;
  bodyLimitBytes: number;
  icsUploadLimitBytes: number;
  /** Records one account may keep (tests lower them instead of inserting 20,000 rows). */
  quotas: RecordQuotas;
  /** How long and how much of an account's deletes can be undone (tests lower the bounds). */
  trash: TrashLimits;
  /** Whether the API serves its documentation: the UI at /api/docs and the OpenAPI document (API_DOCS=false). */
  apiDocs: boolean;
  /** Calendar subscriptions and feeds (services/calendars.ts). */
  subscriptions: SubscriptionConfig;
  /** Background jobs (plugins/app/jobs.ts): how often each instance looks for due work. */
  jobs: JobsConfig;
  /** Web Push (services/push.ts): the VAPID keys and contact. */
  push: PushConfig;
}

export interface PushConfig {
  /**
   * VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, or null: the pair in DATA_DIR/vapid-keys.json, created when the app is
   * built (services/push.ts vapidKeysOf), so reading the configuration writes nothing.
   */
  vapidKeys: VapidKeys | null;
  /** A contact for the push services: mailto: or https:. */
  vapidSubject: string;
}

export interface SubscriptionConfig {
  /** Minutes between background refreshes of each subscribed calendar (SUBSCRIPTION_REFRESH_MINUTES). */
  refreshMinutes: number;
  /**
   * Whether outbound requests (subscriptions, push) may reach loopback, private, link-local and metadata addresses
   * (SUBSCRIPTIONS_ALLOW_PRIVATE_HOSTS=true): off by default, on for tests and intranet calendars.
   */
  allowPrivateHosts: boolean;
  /** Bound of one fetch of a subscribed calendar, redirects and body included (15 s; tests shorten it). */
  fetchTimeoutMs: number;
}

export interface JobsConfig {
  /** Whether this instance runs background jobs at all (JOBS=false turns them off, e.g. for a read-only replica). */
  enabled: boolean;
  /** Seconds between two looks for due work (JOBS_TICK_SECONDS); tests make it short. */
  tickSeconds: number;
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

/** DATA_DIR holds the database, the secret and the mail outbox: a folder this process creates is its owner's only. */
export const DATA_DIR_MODE = 0o700;

const SECRET_WAIT_MS = 2000;
const SECRET_POLL_MS = 20;

function secretIn(file: string): string {
  return readFileSync(file, 'utf8').trim();
}

/**
 * A secret file in DATA_DIR, created on first start. Processes starting together on one DATA_DIR race to create it:
 * the file is created exclusively ('wx'), so exactly one writes it and the others read that one's content, waiting
 * briefly while the file exists but is not complete yet (`read` answers null). It is never overwritten: another
 * process may already be using what it holds. `incomplete` is the error's message when the wait runs out.
 */
function readOrCreateSecretFile<T>(
  dataDir: string,
  name: string,
  create: () => { value: T; text: string },
  read: (text: string) => T | null,
  incomplete: (file: string) => string,
): T {
  const file = path.join(dataDir, name);
  mkdirSync(dataDir, { recursive: true, mode: DATA_DIR_MODE });
  let descriptor: number | undefined;
  try {
    descriptor = openSync(file, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  if (descriptor !== undefined) {
    const { value, text } = create();
    try {
      writeSync(descriptor, text);
    } finally {
      closeSync(descriptor);
    }
    return value;
  }
  // A synchronous wait: configuration is read once at start-up, before anything else runs.
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + SECRET_WAIT_MS;
  for (;;) {
    const existing = read(secretIn(file));
    if (existing !== null) return existing;
    if (Date.now() >= deadline) throw new Error(incomplete(file));
    Atomics.wait(pause, 0, 0, SECRET_POLL_MS);
  }
}

/** The secret stays on disk (DATA_DIR/jwt-secret) so tokens survive restarts; several instances must share JWT_SECRET instead. */
export function readOrCreateJwtSecret(dataDir: string): string {
  return readOrCreateSecretFile(
    dataDir,
    'jwt-secret',
    () => {
      const secret = randomBytes(48).toString('base64url');
      return { value: secret, text: `${secret}\n` };
    },
    (text) => (text.length >= 32 ? text : null),
    (file) =>
      `${file} holds no secret of at least 32 characters; delete it to have one generated, or set JWT_SECRET`,
  );
}

/** The VAPID key pair (base64url, as web-push makes them): a P-256 public key of 65 bytes, a private key of 32. */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** Whether the keys are a P-256 key pair (the public key the private one's); a damaged pair is refused at start. */
export function isVapidKeyPair(keys: Partial<VapidKeys>): keys is VapidKeys {
  const bytes = (text: unknown) =>
    typeof text === 'string' && BASE64URL.test(text) ? Buffer.from(text, 'base64url') : null;
  const publicKey = bytes(keys.publicKey);
  const privateKey = bytes(keys.privateKey);
  if (publicKey?.length !== 65 || privateKey?.length !== 32) return false;
  try {
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(privateKey);
    return ecdh.getPublicKey().equals(publicKey);
  } catch {
    return false;
  }
}

/**
 * The push key pair stays on disk (DATA_DIR/vapid-keys.json), as the JWT secret does: a browser's subscription is
 * bound to the public key it subscribed with, so new keys would silence every subscribed device. Several instances
 * must share VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY instead (or one DATA_DIR).
 */
export function readOrCreateVapidKeys(dataDir: string): VapidKeys {
  return readOrCreateSecretFile<VapidKeys>(
    dataDir,
    'vapid-keys.json',
    () => {
      const keys = webPush().generateVAPIDKeys();
      return { value: keys, text: `${JSON.stringify(keys)}\n` };
    },
    (text) => {
      try {
        const parsed = JSON.parse(text) as Partial<VapidKeys>;
        return isVapidKeyPair(parsed) ? { publicKey: parsed.publicKey, privateKey: parsed.privateKey } : null;
      } catch {
        return null;
      }
    },
    (file) =>
      `${file} holds no VAPID key pair; delete it to have one generated, or set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY`,
  );
}

/** The address part of MAIL_FROM ('Time Wallet <no-reply@example.com>'), the default VAPID contact. */
function mailAddressOf(mailFrom: string): string {
  return /<([^<>\s]+@[^<>\s]+)>/.exec(mailFrom)?.[1] ?? mailFrom.trim();
}

/**
 * VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY (both or neither; checked here, so a damaged pair stops the start), else null
 * for the pair in DATA_DIR; VAPID_SUBJECT is the contact a push service may write to (mailto: or https:), MAIL_FROM's
 * address by default.
 */
export function pushConfigFrom(env: NodeJS.ProcessEnv, mailFrom: string): PushConfig {
  const publicKey = env.VAPID_PUBLIC_KEY?.trim() ?? '';
  const privateKey = env.VAPID_PRIVATE_KEY?.trim() ?? '';
  if ((publicKey === '') !== (privateKey === '')) {
    throw new Error('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together (or neither)');
  }
  const keys = publicKey === '' ? null : { publicKey, privateKey };
  if (keys !== null && !isVapidKeyPair(keys)) {
    throw new Error(
      'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be a P-256 key pair in base64url (npx web-push generate-vapid-keys)',
    );
  }
  const subject = env.VAPID_SUBJECT?.trim() || `mailto:${mailAddressOf(mailFrom)}`;
  if (!/^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/i.test(subject)) {
    throw new Error('VAPID_SUBJECT must be a mailto: address or an https: URL');
  }
  return { vapidKeys: keys, vapidSubject: subject };
}

const PROXY_ADDRESS_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function isProxyAddress(entry: string): boolean {
  if (PROXY_ADDRESS_NAMES.includes(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  // A /0 range would trust every address, as `true` does (and Fastify refuses it at start-up with a stack trace).
  return /^\d{1,3}$/.test(bits) && Number(bits) >= 1 && Number(bits) <= (version === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY names the proxies in front of the API: their addresses and CIDR ranges (`10.0.0.5,10.1.0.0/16`) or a
 * hop count (`1`). The address the per-IP limits count is then the first untrusted one, reading X-Forwarded-For from
 * the right. `true` is refused: it trusts every hop, so the leftmost entry, which the client writes, would win.
 */
export function trustProxyFrom(value: string | undefined): false | number | string[] {
  const text = value?.trim() ?? '';
  if (text === '' || text.toLowerCase() === 'false' || text === '0') return false;
  if (text.toLowerCase() === 'true') {
    throw new Error(
      'TRUST_PROXY=true would let a client choose its own address with X-Forwarded-For: set the number of proxies ' +
        'in front of the API (TRUST_PROXY=1) or their addresses (TRUST_PROXY=10.0.0.5,10.1.0.0/16)',
    );
  }
  if (/^\d+$/.test(text)) return Number(text);
  const proxies = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  const wrong = proxies.find((entry) => !isProxyAddress(entry));
  if (wrong !== undefined) {
    throw new Error(
      `TRUST_PROXY: '${wrong}' is not an IP address or CIDR range; give a hop count (1) or proxy addresses ` +
        '(10.0.0.5,10.1.0.0/16)',
    );
  }
  return proxies;
}

/** Loopback and private-network addresses (IPv4, IPv6 unique-local, and IPv4 mapped into IPv6). */
function isLoopbackOrPrivate(address: string): boolean {
  const ipv4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (isIP(ipv4) === 4) {
    const [a, b] = ipv4.split('.').map(Number) as [number, number];
    return a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168);
  }
  const lower = address.toLowerCase();
  return isIP(address) === 6 && (lower === '::1' || /^f[cd][0-9a-f]{2}:/.test(lower));
}

/**
 * Fastify's trustProxy for the configured proxies. Fastify 5 trusts no hop for a bare number (it fails closed, so a
 * direct client cannot forge X-Forwarded-For); a hop count is this function instead. It trusts the nearest hops only
 * when the peer on the socket is a loopback or private-network address, the load balancer's side of the network, and
 * only entries that are IP addresses: a client on the public side that reaches the API directly is counted as itself.
 */
export function trustProxyOption(
  trustProxy: AppConfig['trustProxy'],
): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trustProxy !== 'number') return trustProxy;
  const hops = trustProxy;
  return (address, hop) => hop < hops && isIP(address) !== 0 && (hop > 0 || isLoopbackOrPrivate(address));
}

function integerFrom(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value.trim() === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`${name} must be a non-negative integer`);
  return parsed;
}

function booleanFrom(value: string | undefined, fallback: boolean, name: string): boolean {
  const text = value?.trim().toLowerCase() ?? '';
  if (text === '') return fallback;
  if (text !== 'true' && text !== 'false') throw new Error(`${name} must be 'true' or 'false'`);
  return text === 'true';
}

function positiveIntegerFrom(value: string | undefined, fallback: number, name: string): number {
  const parsed = integerFrom(value, fallback, name);
  if (parsed === 0) throw new Error(`${name} must be a positive integer`);
  return parsed;
}

/**
 * The idle time-out's default, written once in a file the shell's start scripts read too (runtimeConfigFor in
 * shell/packages/devkit/bin/lib.mjs), so the API and the browser's inactivity sign-out cannot drift apart. The path
 * is the same from src/ (tsx) and dist/ (the build).
 */
export const DEFAULT_SESSION_IDLE_MINUTES = (() => {
  const defaults = JSON.parse(readFileSync(new URL('../session-defaults.json', import.meta.url), 'utf8')) as {
    idleMinutes?: unknown;
  };
  if (!Number.isInteger(defaults.idleMinutes) || Number(defaults.idleMinutes) <= 0) {
    throw new Error('server/session-defaults.json must hold a positive integer idleMinutes');
  }
  return Number(defaults.idleMinutes);
})();

export const DEFAULT_POSTGRES_POOL: PostgresPoolConfig = {
  max: 10,
  connectionTimeoutMs: 5000,
  statementTimeoutMs: 15_000,
};

export function postgresPoolFrom(env: NodeJS.ProcessEnv): PostgresPoolConfig {
  const defaults = DEFAULT_POSTGRES_POOL;
  return {
    max: positiveIntegerFrom(env.PG_POOL_MAX, defaults.max, 'PG_POOL_MAX'),
    connectionTimeoutMs: positiveIntegerFrom(
      env.PG_CONNECT_TIMEOUT_MS,
      defaults.connectionTimeoutMs,
      'PG_CONNECT_TIMEOUT_MS',
    ),
    statementTimeoutMs: positiveIntegerFrom(
      env.PG_STATEMENT_TIMEOUT_MS,
      defaults.statementTimeoutMs,
      'PG_STATEMENT_TIMEOUT_MS',
    ),
  };
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
  const postgresPool = overrides.postgresPool ?? postgresPoolFrom(env);
  const jwtSecret = overrides.jwtSecret ?? (env.JWT_SECRET?.trim() || readOrCreateJwtSecret(dataDir));
  if (jwtSecret.length < 32) throw new Error('JWT_SECRET must be at least 32 characters');
  const mailFrom = overrides.mailFrom ?? env.MAIL_FROM ?? 'Time Wallet <no-reply@time-wallet.local>';
  const push = overrides.push ?? pushConfigFrom(env, mailFrom);
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
    mailFrom,
    appUrl: (env.APP_URL ?? 'http://localhost:3000').replace(/\/+$/, ''),
    logLevel: env.LOG_LEVEL ?? 'info',
    trustProxy: trustProxyFrom(env.TRUST_PROXY),
    tokenTtlSeconds: integerFrom(env.TOKEN_TTL_SECONDS, 7 * 24 * 3600, 'TOKEN_TTL_SECONDS'),
    sessionIdleMinutes: positiveIntegerFrom(
      env.SESSION_IDLE_MINUTES,
      DEFAULT_SESSION_IDLE_MINUTES,
      'SESSION_IDLE_MINUTES',
    ),
    passwordHashCost: PRODUCTION_PASSWORD_HASH_COST,
    requestTimeoutMs: 30_000,
    bodyLimitBytes: 100 * 1024,
    icsUploadLimitBytes: 1024 * 1024,
    quotas: RECORD_QUOTAS,
    trash: TRASH_LIMITS,
    apiDocs: booleanFrom(env.API_DOCS, true, 'API_DOCS'),
    subscriptions: {
      refreshMinutes: positiveIntegerFrom(
        env.SUBSCRIPTION_REFRESH_MINUTES,
        60,
        'SUBSCRIPTION_REFRESH_MINUTES',
      ),
      allowPrivateHosts: booleanFrom(
        env.SUBSCRIPTIONS_ALLOW_PRIVATE_HOSTS,
        false,
        'SUBSCRIPTIONS_ALLOW_PRIVATE_HOSTS',
      ),
      fetchTimeoutMs: 15_000,
    },
    jobs: {
      enabled: booleanFrom(env.JOBS, true, 'JOBS'),
      tickSeconds: positiveIntegerFrom(env.JOBS_TICK_SECONDS, 60, 'JOBS_TICK_SECONDS'),
    },
    ...overrides,
    rateLimit: {
      globalPerMinute: integerFrom(env.RATE_LIMIT_PER_MINUTE, 600, 'RATE_LIMIT_PER_MINUTE'),
      authPerMinute: integerFrom(env.AUTH_RATE_LIMIT_PER_MINUTE, 20, 'AUTH_RATE_LIMIT_PER_MINUTE'),
      healthPerMinute: integerFrom(env.HEALTH_RATE_LIMIT_PER_MINUTE, 600, 'HEALTH_RATE_LIMIT_PER_MINUTE'),
      loginFailuresPerAccount: 5,
      loginFailureWindowMs: 15 * 60_000,
      store: rateLimitStore,
      ...overrides.rateLimit,
    },
    dataDir,
    database,
    postgresPool,
    jwtSecret,
    push,
  };
}
