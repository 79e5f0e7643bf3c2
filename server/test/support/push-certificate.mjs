// The certificate of the tests' fake push service (test/support/push-service.ts): a CA of the tests' own and a
// server certificate it signed for the loopback addresses 127.0.0.1 to 127.0.0.20. Node reads extra trusted CAs from
// NODE_EXTRA_CA_CERTS once, when a process starts, so the test runners (test/run.mjs) make the files first and
// start the test processes with NODE_EXTRA_CA_CERTS set to the CA; a test file run on its own needs it set by hand:
//   NODE_EXTRA_CA_CERTS=$(node test/support/push-certificate.mjs) node --import tsx --test test/routes/push.test.ts
// Plain JavaScript, so the runners can import it without tsx. Nothing but loopback addresses is ever named.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The loopback addresses the server certificate names (the fake service listens on one of them). */
export const PUSH_SERVICE_HOSTS = Array.from({ length: 20 }, (_, index) => `127.0.0.${index + 1}`);

/** Where the files live: one folder per user, shared by every test process, with one pair per day in it. */
export function pushCertificateDir() {
  return path.join(tmpdir(), `time-wallet-push-ca-${process.getuid?.() ?? 'user'}`);
}

/** A day's pair is valid for four days, and kept two: a run that began on one day never outlives its pair. */
const VALID_DAYS = 4;
const KEPT_DAYS = 2;
const FILES = ['ca.pem', 'server.pem', 'server-key.pem'];

function openssl(args, cwd) {
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
}

function makePair(work) {
  const days = String(VALID_DAYS);
  openssl(
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-days',
      days,
      '-subj',
      '/CN=Time Wallet test push CA',
      '-keyout',
      'ca-key.pem',
      '-out',
      'ca.pem',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ],
    work,
  );
  openssl(
    [
      'req',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-subj',
      '/CN=127.0.0.2',
      '-keyout',
      'server-key.pem',
      '-out',
      'server.csr',
    ],
    work,
  );
  writeFileSync(
    path.join(work, 'server.ext'),
    `basicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\nsubjectAltName=${PUSH_SERVICE_HOSTS.map((host) => `IP:${host}`).join(',')}\n`,
  );
  openssl(
    [
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca-key.pem',
      '-CAcreateserial',
      '-days',
      days,
      '-extfile',
      'server.ext',
      '-out',
      'server.pem',
    ],
    work,
  );
  // The CA signs nothing else: its key is not kept.
  rmSync(path.join(work, 'ca-key.pem'));
}

/**
 * Makes today's CA and server certificate unless they exist; answers their paths. A pair is made in a folder of its
 * own and renamed into place, which fails when another process got there first (its pair is used then), so processes
 * starting together never read half-written files nor replace the pair another one already trusts.
 */
export function ensurePushCertificate() {
  const base = pushCertificateDir();
  const today = new Date().toISOString().slice(0, 10);
  const dir = path.join(base, today);
  const paths = {
    ca: path.join(dir, 'ca.pem'),
    cert: path.join(dir, 'server.pem'),
    key: path.join(dir, 'server-key.pem'),
  };
  if (FILES.every((file) => existsSync(path.join(dir, file)))) return paths;
  mkdirSync(base, { recursive: true, mode: 0o700 });
  const work = mkdtempSync(path.join(base, 'new-'));
  try {
    makePair(work);
    renameSync(work, dir);
  } catch (error) {
    rmSync(work, { recursive: true, force: true });
    if (!FILES.every((file) => existsSync(path.join(dir, file)))) throw error;
  }
  // Pairs older than KEPT_DAYS go (a run still using one has its CA loaded already and its files read).
  const oldest = new Date(Date.now() - KEPT_DAYS * 24 * 3600_000).toISOString().slice(0, 10);
  for (const entry of readdirSync(base)) {
    if (/^\d{4}-\d{2}-\d{2}$/.test(entry) && entry < oldest)
      rmSync(path.join(base, entry), { recursive: true, force: true });
  }
  return paths;
}

// Run as a script: make the files and print the CA's path, for NODE_EXTRA_CA_CERTS.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(`${ensurePushCertificate().ca}\n`);
}
