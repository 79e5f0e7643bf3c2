import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';

const require = createRequire(import.meta.url);
const { repoRoot } = require('@time-wallet/devkit/apps');
const TEST_RUN = path.join(repoRoot, 'shell/packages/devkit/bin/test.mjs');

/** Every process below `root`, from /proc (the parent is the field after the command's closing parenthesis). */
function descendantsOf(root) {
  const children = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // it ended while the list was read
    }
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
  }
  const found = [];
  const queue = [root];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()) ?? []) {
      queue.push(child);
      found.push(child);
    }
  }
  return found;
}

const isRunning = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(condition, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('npm test stopped by a signal', () => {
  // A CI runner's cancel or `kill` reaches test.mjs alone, not its process group as a terminal's Ctrl-C does.
  for (const signal of ['SIGINT', 'SIGTERM']) {
    it(`ends every process its running stage started when ${signal} reaches it alone`, async () => {
      const run = spawn(process.execPath, [TEST_RUN, 'typecheck'], { cwd: repoRoot, stdio: 'ignore' });
      try {
        // npm, the shell it starts and the compiler below it.
        await until(() => descendantsOf(run.pid).length >= 3, 30_000, "the typecheck stage's processes");
        const started = descendantsOf(run.pid);
        run.kill(signal);
        const [code] = await once(run, 'exit');
        assert.equal(code, 1, 'a stopped run fails');
        await until(() => started.every((pid) => !isRunning(pid)), 10_000, 'the stage to end');
      } finally {
        if (isRunning(run.pid)) run.kill('SIGKILL');
      }
    });
  }
});
