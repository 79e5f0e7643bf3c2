import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { repositoryRoot } from '../../support/source.js';

const repoRoot = repositoryRoot();

test("the server's RRULE reader is shared-ui's lib/rrule.ts, as npm run server:copies writes it", () => {
  const check = spawnSync(
    process.execPath,
    [path.join(repoRoot, 'shell/packages/devkit/bin/server-copies.mjs'), '--check'],
    { cwd: repoRoot, encoding: 'utf8' },
  );
  assert.equal(check.status, 0, check.stderr);
});
