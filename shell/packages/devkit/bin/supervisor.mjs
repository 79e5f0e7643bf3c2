import { spawn } from 'node:child_process';

const EXIT_WITH_LAUNCHER = new URL('./exit-with-launcher.mjs', import.meta.url).href;

function relayLines(stream, target, prefix) {
  let pending = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) target.write(`${prefix}${line}\n`);
  });
  stream.on('end', () => {
    if (pending) target.write(`${prefix}${pending}\n`);
  });
}

const hasExited = (child) => child.exitCode !== null || child.signalCode !== null;

/**
 * Runs the launcher's child processes and keeps them running. A child that exits while the launcher is not stopping
 * is logged and started again after 1 s, doubling up to 10 s while it keeps failing; a child that fails `crashLimit`
 * times within `crashWindowMs` stops everything. `stop()` sends SIGTERM to every child, SIGKILL after `graceMs`, and
 * resolves `stopped` with the exit code once every child is gone. Node children (`script`) get an IPC channel and
 * exit by themselves when it closes, so even a launcher killed with SIGKILL leaves no orphans behind.
 */
export function createSupervisor({
  restartDelayMs = 1000,
  maxRestartDelayMs = 10_000,
  crashLimit = 5,
  crashWindowMs = 60_000,
  graceMs = 10_000,
  now = Date.now,
  log = (line) => console.error(line),
} = {}) {
  const entries = new Map();
  let stopping = false;
  let resolveStopped;
  const stopped = new Promise((resolve) => (resolveStopped = resolve));

  function launch(entry) {
    const { spec } = entry;
    const isNode = spec.script !== undefined;
    const command = isNode ? process.execPath : spec.command;
    const args = isNode
      ? ['--import', EXIT_WITH_LAUNCHER, spec.script, ...(spec.args ?? [])]
      : (spec.args ?? []);
    const output = spec.outputPrefix === undefined ? 'inherit' : 'pipe';
    const child = spawn(command, args, {
      cwd: spec.cwd,
      env: spec.env,
      stdio: ['ignore', output, output, ...(isNode ? ['ipc'] : [])],
    });
    entry.child = child;
    entry.starts += 1;
    if (output === 'pipe') {
      relayLines(child.stdout, process.stdout, spec.outputPrefix);
      relayLines(child.stderr, process.stderr, spec.outputPrefix);
    }
    if (spec.onMessage) child.on('message', (message) => spec.onMessage(message, entry.starts));
    let exited = false;
    const exitedWith = (how) => {
      if (exited) return;
      exited = true;
      onExit(entry, how);
    };
    // A command that cannot be spawned at all emits 'error' and maybe no 'exit'.
    child.on('error', (error) => {
      if (child.pid === undefined) exitedWith(`an error (${error.message})`);
    });
    child.once('exit', (code, signal) => exitedWith(signal ?? `code ${code}`));
  }

  function onExit(entry, how) {
    if (stopping) return;
    const at = now();
    entry.crashes = entry.crashes.filter((crashedAt) => at - crashedAt < crashWindowMs);
    entry.crashes.push(at);
    if (entry.crashes.length >= crashLimit) {
      log(
        `[${entry.name}] exited with ${how}, ${entry.crashes.length} times within ${crashWindowMs / 1000} s; ` +
          'giving up and stopping everything',
      );
      void stop(1);
      return;
    }
    const delay = Math.min(restartDelayMs * 2 ** (entry.crashes.length - 1), maxRestartDelayMs);
    log(`[${entry.name}] exited with ${how}; restarting in ${delay / 1000} s`);
    entry.restartTimer = setTimeout(() => {
      entry.restartTimer = null;
      if (!stopping) launch(entry);
    }, delay);
  }

  /**
   * Starts a supervised child: `{script, args}` for a Node script (with the IPC channel), else `{command, args}`;
   * `cwd`, `env`; `outputPrefix` prefixes each line of its output (inherited as is without one); `onMessage`
   * receives its IPC messages and how many times it has been started.
   */
  function start(name, spec) {
    if (entries.has(name)) throw new Error(`${name} is already supervised`);
    const entry = { name, spec, child: null, starts: 0, crashes: [], restartTimer: null };
    entries.set(name, entry);
    launch(entry);
  }

  function running() {
    return [...entries.values()].map((entry) => entry.child).filter((child) => child && !hasExited(child));
  }

  function stop(code = 0) {
    if (stopping) return stopped;
    stopping = true;
    for (const entry of entries.values()) clearTimeout(entry.restartTimer);
    const children = running();
    for (const child of children) child.kill('SIGTERM');
    const killTimer = setTimeout(() => {
      const left = [...entries.values()].filter(
        (entry) => children.includes(entry.child) && !hasExited(entry.child),
      );
      log(`${left.map((entry) => entry.name).join(', ')} still running after ${graceMs / 1000} s; killing`);
      for (const entry of left) entry.child.kill('SIGKILL');
    }, graceMs);
    void Promise.all(
      children.map(
        (child) => new Promise((resolve) => (hasExited(child) ? resolve() : child.once('exit', resolve))),
      ),
    ).then(() => {
      clearTimeout(killTimer);
      resolveStopped(code);
    });
    return stopped;
  }

  /**
   * SIGINT and SIGTERM stop everything. A repeated signal changes nothing: Ctrl-C under `npm start` arrives twice
   * (from the terminal and forwarded by npm), and must not cut the API's graceful shutdown short.
   */
  function stopOnSignals() {
    for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void stop(0));
  }

  return {
    start,
    stop,
    stopOnSignals,
    stopped,
    get stopping() {
      return stopping;
    },
  };
}
