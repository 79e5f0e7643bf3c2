import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { makeScratchDir } from '@time-wallet/devkit/prerequisites';

describe("npm test's scratch folder", () => {
  const roots = [];
  const root = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'time-wallet-scratch-root-'));
    roots.push(dir);
    return dir;
  };
  after(() => roots.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

  it('is made in memory-backed storage when it has room, traversable only, and removed with its contents', () => {
    const memoryBacked = root();
    const scratch = makeScratchDir({ memoryBacked, minFreeBytes: 1 });
    assert.equal(path.dirname(scratch.dir), memoryBacked);
    assert.equal(fs.statSync(scratch.dir).mode & 0o777, 0o711);
    fs.mkdirSync(path.join(scratch.dir, 'left-by-a-test'));
    fs.writeFileSync(path.join(scratch.dir, 'left-by-a-test', 'test.sqlite'), 'x');
    scratch.remove();
    assert.equal(fs.existsSync(scratch.dir), false);
  });

  it('falls back to the system temporary folder when memory-backed storage is too small or missing', () => {
    for (const options of [
      { memoryBacked: root(), minFreeBytes: Number.MAX_SAFE_INTEGER },
      { memoryBacked: path.join(root(), 'no-such-folder'), minFreeBytes: 1 },
    ]) {
      const scratch = makeScratchDir(options);
      try {
        assert.equal(path.dirname(scratch.dir), os.tmpdir());
        assert.match(path.basename(scratch.dir), /^time-wallet-npm-test-/);
      } finally {
        scratch.remove();
      }
    }
  });
});
