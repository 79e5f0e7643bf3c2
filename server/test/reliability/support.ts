// Shared by the reliability suites and the soak script: they drive the real built API (dist/server.js) as a separate
// process, the way it runs in production, instead of Fastify's inject(). Run from test/run.mjs's compiled copy, the
// copy's own src/ is that build (test/support/source.ts), and tsc's dist/ is what the browser suite starts.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { compiledCopy, serverDir } from '../support/source.js';
import { apiProcessEnv, freePort } from './api-process.mjs';

export { serverDir };
/** RELIABILITY_SERVER names another build to run (a deliberately broken copy, to check that a suite can fail). */
export const builtServer =
  process.env.RELIABILITY_SERVER ?? path.join(serverDir, compiledCopy ? 'src' : 'dist', 'server.js');

function newestSourceChange(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSourceChange(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** Deletes the files of dist/ whose source in src/ is gone (x.js, x.js.map and x.d.ts of a removed x.ts). */
function removeStaleBuildFiles(distDir: string, srcDir: string): void {
  let entries;
  try {
    entries = readdirSync(distDir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const built = path.join(distDir, entry.name);
    if (entry.isDirectory()) {
      removeStaleBuildFiles(built, path.join(srcDir, entry.name));
      continue;
    }
    const source = path.join(srcDir, entry.name.replace(/(\.d\.ts|\.js\.map|\.js)$/, '.ts'));
    if (source.endsWith('.ts') && !existsSync(source)) rmSync(built, { force: true });
  }
}

function builtAt(): number {
  try {
    return statSync(builtServer).mtimeMs;
  } catch {
    return 0;
  }
}

/**
 * Builds dist/ when it is missing or older than src/, so the suites never test a stale build. Two test files may ask
 * at once (the runner runs two in parallel): a lock directory lets one build while the other waits.
 */
export async function ensureBuilt(): Promise<void> {
  if (process.env.RELIABILITY_SERVER || compiledCopy) return;
  const lock = path.join(
    tmpdir(),
    `time-wallet-server-build-${createHash('sha1').update(serverDir).digest('hex')}`,
  );
  for (;;) {
    if (builtAt() >= newestSourceChange(path.join(serverDir, 'src'))) return;
    try {
      mkdirSync(lock);
    } catch {
      // Someone else is building; a lock older than two minutes belongs to a build that died.
      try {
        if (Date.now() - statSync(lock).mtimeMs > 120_000) rmSync(lock, { recursive: true, force: true });
      } catch {
        // Removed meanwhile.
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
      continue;
    }
    try {
      if (builtAt() < newestSourceChange(path.join(serverDir, 'src'))) {
        // The same command as `npm run build -w server`, which empties dist first. Here only what a removed source file
        // left is deleted (routes are loaded by directory: a stale route or hooks file would be loaded with them),
        // because another test file may be starting the built server meanwhile.
        removeStaleBuildFiles(path.join(serverDir, 'dist'), path.join(serverDir, 'src'));
        const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
        const build = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], {
          cwd: serverDir,
          encoding: 'utf8',
        });
        if (build.status !== 0) throw new Error(`server build failed:\n${build.stdout}${build.stderr}`);
      }
      return;
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

export { freePort };

export interface RunningApi {
  child: ChildProcess;
  pid: number;
  port: number;
  url: string;
  /** Everything the process wrote to stdout and stderr so far. */
  output: () => string;
  /** Resolves with the exit code (null when killed by a signal) and the signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL if still running, then wait for the exit. */
  kill: () => Promise<void>;
}

/**
 * Starts `node dist/server.js` on a free port and waits for /api/health. The environment is the bare minimum plus
 * `env`: nothing of the caller's DATABASE_URL or PORT leaks in.
 */
export async function startApi(env: Record<string, string>, timeoutMs = 30_000): Promise<RunningApi> {
  const port = await freePort();
  const child = spawn(process.execPath, [builtServer], {
    cwd: serverDir,
    env: apiProcessEnv(port, {
      RATE_LIMIT_PER_MINUTE: '1000000',
      AUTH_RATE_LIMIT_PER_MINUTE: '100000',
      ...env,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // Once its output has all arrived too ('exit' may come before the last of it), so output() then holds every line.
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal })),
  );
  let hasExited = false;
  void exited.then(() => (hasExited = true));
  const url = `http://127.0.0.1:${port}`;
  const api: RunningApi = {
    child,
    pid: child.pid!,
    port,
    url,
    output: () => output,
    exited,
    kill: async () => {
      if (!hasExited) child.kill('SIGKILL');
      await exited;
    },
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (hasExited) throw new Error(`the API exited while starting:\n${output}`);
    try {
      const health = await fetch(`${url}/api/health`);
      if (health.status === 200) return api;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await api.kill();
      throw new Error(`the API did not answer /api/health within ${timeoutMs} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface ApiAnswer<T = unknown> {
  status: number;
  body: T;
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/** The headers of a JSON request: the caller's, the bearer token and, with a body, its content type. */
export function requestHeaders(options: CallOptions): Record<string, string> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  return headers;
}

/** One JSON request; throws only when no answer came at all (connection refused or reset). */
export async function call<T = unknown>(
  baseUrl: string,
  method: string,
  url: string,
  options: CallOptions = {},
): Promise<ApiAnswer<T>> {
  const headers = requestHeaders(options);
  const response = await fetch(`${baseUrl}/api${url}`, {
    method,
    headers,
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON: keep the text for the failure message.
  }
  return { status: response.status, body: body as T };
}

let accounts = 0;

export function newAccount(prefix: string) {
  accounts += 1;
  const username = `${prefix}${process.pid}x${accounts}`;
  return {
    username,
    email: `${username.toLowerCase()}@example.com`,
    password: 'Passw0rd!',
    name: 'Reliability Tester',
  };
}

/** Registers and signs in (one scrypt hash at the production cost on each). */
export async function signUpOn(baseUrl: string, prefix: string) {
  const account = newAccount(prefix);
  const registered = await call(baseUrl, 'POST', '/auth/register/user', { body: account });
  if (registered.status !== 201)
    throw new Error(`registration: ${registered.status} ${JSON.stringify(registered.body)}`);
  const login = await call<{ token: string }>(baseUrl, 'POST', '/auth/login', {
    body: { username: account.username, password: account.password },
  });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${JSON.stringify(login.body)}`);
  return { ...account, token: login.body.token };
}

/** Resident set size in kB of a live process, from /proc/<pid>/status (Linux). */
export function rssKb(statusText: string): number {
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(statusText);
  if (!match) throw new Error('no VmRSS line in /proc/<pid>/status');
  return Number(match[1]);
}

/** Polls `check` every 20 ms until it returns true; fails with `what` after `timeoutMs`. */
export async function waitFor(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** An .ics file of `count` one-hour events with UIDs `<prefix>-<n>`. */
export function calendarOf(prefix: string, count: number): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Time Wallet reliability//EN'];
  for (let index = 0; index < count; index += 1) {
    const day = String(1 + (index % 28)).padStart(2, '0');
    const hour = String(index % 24).padStart(2, '0');
    lines.push(
      'BEGIN:VEVENT',
      `UID:${prefix}-${index}@reliability`,
      'DTSTAMP:20260301T000000Z',
      `DTSTART:202603${day}T${hour}0000Z`,
      `DTEND:202603${day}T${hour}3000Z`,
      `SUMMARY:${prefix} event ${index}`,
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR', '');
  return lines.join('\r\n');
}

/** A multipart/form-data body with the calendar in the field "file", as the browser sends it. */
export function icsUpload(content: string): { body: Buffer; contentType: string } {
  const boundary = `----reliability${Math.random().toString(16).slice(2)}`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="calendar.ics"\r\n` +
        'Content-Type: text/calendar\r\n\r\n',
    ),
    Buffer.from(content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}
