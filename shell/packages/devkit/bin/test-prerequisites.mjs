import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * What `npm test` needs beyond npm packages: Chromium for the browser suite and PostgreSQL for the suites that run on
 * it. Each is found, or installed from Debian's apt when this runs as root (or with password-less sudo), or the run
 * stops at once with the exact command to type.
 */
export class MissingPrerequisiteError extends Error {}

export const CHROMIUM_CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
];

/** The Chromium the browser suite drives: CHROMIUM_PATH when set, else the first installed candidate. */
export function findChromium(env = process.env) {
  const candidates = env.CHROMIUM_PATH ? [env.CHROMIUM_PATH] : CHROMIUM_CANDIDATES;
  return candidates.find((candidate) => fs.existsSync(candidate)) ?? null;
}

function postgresBinDir() {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return null;
  const versions = fs
    .readdirSync(root)
    .filter((version) => fs.existsSync(path.join(root, version, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? path.join(root, versions[0], 'bin') : null;
}

const isRoot = () => process.getuid?.() === 0;

function canSudo() {
  return spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0;
}

/** Installs Debian packages when allowed to; otherwise throws with the command a person has to run. */
function aptInstall(packages, log) {
  const command = `apt-get update && apt-get install -y ${packages.join(' ')}`;
  const prefix = isRoot() ? [] : canSudo() ? ['sudo', '-n'] : null;
  if (!prefix || !fs.existsSync('/usr/bin/apt-get')) {
    throw new MissingPrerequisiteError(`npm test needs ${packages.join(' and ')}. Run: sudo ${command}`);
  }
  log(`Installing ${packages.join(', ')} from apt (about a minute)`);
  const run = (args) => {
    const [program, ...rest] = [...prefix, ...args];
    const result = spawnSync(program, rest, {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (result.status !== 0) {
      throw new MissingPrerequisiteError(`Installing ${packages.join(' ')} failed. Run: sudo ${command}`);
    }
  };
  run(['apt-get', 'update', '-qq']);
  run(['apt-get', 'install', '-y', '-qq', ...packages]);
}

/** The path of a Chromium binary, installing Debian's when there is none. */
export function ensureChromium({ env = process.env, log = console.log } = {}) {
  const found = findChromium(env);
  if (found) return found;
  if (env.CHROMIUM_PATH) {
    throw new MissingPrerequisiteError(`CHROMIUM_PATH is set to ${env.CHROMIUM_PATH}, which does not exist`);
  }
  aptInstall(['chromium'], log);
  const installed = findChromium(env);
  if (!installed) throw new MissingPrerequisiteError('chromium was installed but no binary was found');
  return installed;
}

/**
 * OpenSSL, which makes the certificate of the server tests' fake push service (server/test/support/push-certificate.mjs),
 * installed from Debian's when it is missing.
 */
export function ensureOpenssl({ log = console.log } = {}) {
  const found = () => spawnSync('openssl', ['version'], { stdio: 'ignore' }).status === 0;
  if (found()) return;
  aptInstall(['openssl'], log);
  if (!found()) throw new MissingPrerequisiteError('openssl was installed but cannot be run');
}

/** A port nothing listens on now, on `host`: for a server a test or a throw-away cluster is about to start. */
export function freePort(host = '127.0.0.1') {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** Less free space than this in memory-backed storage and a test run's scratch files stay on disk. */
const MIN_FREE_SCRATCH_BYTES = 2 * 1024 ** 3;

/**
 * A folder for one test run's scratch files (SQLite databases, Chromium profiles, the PostgreSQL cluster), in
 * memory-backed storage when there is room: on this machine's disk PostgreSQL took about 430 ms to copy a test
 * database from its template and 31 ms on /dev/shm, and the server suites ran 10-20% faster. With too little room
 * (a container's 64 MB /dev/shm) or none, the folder is made under the system's temporary folder instead.
 * Traversable by other users, as the cluster runs as `postgres` when this runs as root; what the run makes inside
 * keeps its own modes. `remove()` deletes it and everything in it.
 */
export function makeScratchDir({ memoryBacked = '/dev/shm', minFreeBytes = MIN_FREE_SCRATCH_BYTES } = {}) {
  const roomIn = (dir) => {
    try {
      const { bavail, bsize } = fs.statfsSync(dir);
      fs.accessSync(dir, fs.constants.W_OK);
      return bavail * bsize;
    } catch {
      return 0;
    }
  };
  const parent = roomIn(memoryBacked) >= minFreeBytes ? memoryBacked : os.tmpdir();
  const dir = fs.mkdtempSync(path.join(parent, 'time-wallet-npm-test-'));
  fs.chmodSync(dir, 0o711);
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A PostgreSQL cluster of its own for one test run, in a temporary folder under `parent`, on a free loopback port,
 * with trust authentication on loopback only; `stop()` shuts it down and deletes the folder. PostgreSQL refuses to run as root,
 * so as root the cluster runs as the `postgres` user the Debian package creates.
 */
export async function startThrowawayPostgres({ log = console.log, parent = os.tmpdir() } = {}) {
  let binDir = postgresBinDir();
  if (!binDir) {
    aptInstall(['postgresql'], log);
    binDir = postgresBinDir();
    if (!binDir) throw new MissingPrerequisiteError('postgresql was installed but initdb was not found');
  }
  const owner = isRoot() ? 'postgres' : null;
  const asOwner = (program, args) => {
    const [command, ...rest] = owner
      ? ['runuser', '-u', owner, '--', path.join(binDir, program), ...args]
      : [path.join(binDir, program), ...args];
    const result = spawnSync(command, rest, { encoding: 'utf8' });
    if (result.status !== 0) {
      throw new Error(`${program} failed: ${(result.stderr || result.stdout || '').trim()}`);
    }
    return result.stdout;
  };

  const dir = fs.mkdtempSync(path.join(parent, 'time-wallet-postgres-'));
  if (owner) spawnSync('chown', [owner, dir]);
  const dataDir = path.join(dir, 'data');
  const port = await freePort();
  const stop = () => {
    if (fs.existsSync(path.join(dataDir, 'postmaster.pid'))) {
      try {
        asOwner('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
      } catch (error) {
        log(`Stopping the test PostgreSQL failed: ${error.message}`);
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    asOwner('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    const settings = [
      `-p ${port}`,
      `-k ${dir}`,
      "-c listen_addresses='127.0.0.1'",
      '-c fsync=off',
      '-c max_connections=200',
    ].join(' ');
    asOwner('pg_ctl', ['-D', dataDir, '-o', settings, '-l', path.join(dir, 'server.log'), '-w', 'start']);
    asOwner('psql', [
      '-h',
      '127.0.0.1',
      '-p',
      String(port),
      '-U',
      'postgres',
      '-qc',
      'create database time_wallet_test',
    ]);
  } catch (error) {
    stop();
    throw error;
  }
  return { url: `postgres://postgres@127.0.0.1:${port}/time_wallet_test`, stop };
}
