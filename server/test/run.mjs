// Node 20's test runner does not expand `**` globs, so the server's test files are listed here.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensurePushCertificate } from './support/push-certificate.mjs';

const testDir = path.dirname(fileURLToPath(import.meta.url));
const files = readdirSync(testDir, { recursive: true })
  .map(String)
  .filter((file) => file.endsWith('.test.ts'))
  .filter((file) => process.argv.length <= 2 || process.argv.slice(2).some((filter) => file.includes(filter)))
  .sort()
  .map((file) => path.join('test', file));

// The fake push service's CA (test/support/push-service.ts): Node reads NODE_EXTRA_CA_CERTS only at process start.
const pushCertificate = ensurePushCertificate();

const result = spawnSync(
  process.execPath,
  // loopback-only: no test may connect anywhere but a loopback address (test/support/loopback-only.mjs).
  [
    '--import',
    'tsx',
    '--import',
    './test/support/loopback-only.mjs',
    '--test',
    '--test-reporter=spec',
    '--test-concurrency=2',
    ...files,
  ],
  {
    stdio: 'inherit',
    cwd: path.dirname(testDir),
    env: { ...process.env, NODE_EXTRA_CA_CERTS: pushCertificate.ca },
  },
);
process.exit(result.status ?? 1);
