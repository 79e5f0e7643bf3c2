// The certificate of the tests' fake push service (test/support/push-service.ts): a CA of the tests' own and a
// server certificate it signed for the loopback addresses 127.0.0.1 to 127.0.0.20. Node reads extra trusted CAs from
// NODE_EXTRA_CA_CERTS once, when a process starts, so the test runners (test/run.mjs) make the files first and
// start the test processes with NODE_EXTRA_CA_CERTS set to the CA; a test file run on its own needs it set by hand:
//   NODE_EXTRA_CA_CERTS=$(node test/support/push-certificate.mjs) node --import tsx --test test/routes/push.test.ts
// Plain JavaScript, so the runners can import it without tsx. Nothing but loopback addresses is ever named.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The loopback addresses the server certificate names (the fake service listens on one of them). */
export const PUSH_SERVICE_HOSTS = Array.from({ length: 20 }, (_, index) => `127.0.0.${index + 1}`);

/** Kept for a day at most: a fresh pair is made after that (the certificates last two days). */
const MAX_AGE_MS = 24 * 3600_000;

/** Where the files live: one folder per user, shared by every test process. */
export function pushCertificateDir() {
  return path.join(tmpdir(), `time-wallet-push-ca-${process.getuid?.() ?? 'user'}`);
}

function openssl(args, cwd) {
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
}

function fresh(dir) {
  const stamp = path.join(dir, 'created');
  if (
    !['ca.pem', 'server.pem', 'server-key.pem', 'created'].every((file) => existsSync(path.join(dir, file)))
  )
    return false;
  return Date.now() - Number(readFileSync(stamp, 'utf8')) < MAX_AGE_MS;
}

/**
 * Makes the CA and the server certificate unless fresh ones exist; answers their paths. Made in a folder of its own
 * and renamed into place, so test processes starting together never read half-written files.
 */
export function ensurePushCertificate() {
  const dir = pushCertificateDir();
  if (!fresh(dir)) {
    const work = mkdtempSync(path.join(tmpdir(), 'time-wallet-push-ca-new-'));
    try {
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
          '2',
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
          '2',
          '-extfile',
          'server.ext',
          '-out',
          'server.pem',
        ],
        work,
      );
      rmSync(path.join(work, 'ca-key.pem'));
      writeFileSync(path.join(work, 'created'), String(Date.now()));
      mkdirSync(path.dirname(dir), { recursive: true });
      const old = `${dir}-old-${process.pid}`;
      if (existsSync(dir)) renameSync(dir, old);
      try {
        renameSync(work, dir);
      } catch (error) {
        // Another process put its fresh pair in place first: use that one.
        if (!fresh(dir)) throw error;
        rmSync(work, { recursive: true, force: true });
      }
      rmSync(old, { recursive: true, force: true });
    } catch (error) {
      rmSync(work, { recursive: true, force: true });
      throw error;
    }
  }
  return {
    ca: path.join(dir, 'ca.pem'),
    cert: path.join(dir, 'server.pem'),
    key: path.join(dir, 'server-key.pem'),
  };
}

// Run as a script: make the files and print the CA's path, for NODE_EXTRA_CA_CERTS.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(`${ensurePushCertificate().ca}\n`);
}
