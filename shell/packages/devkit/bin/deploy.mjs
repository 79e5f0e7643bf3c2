import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { compatibilityProblems, compatibilitySummary, isVersion } from './gate.mjs';
import {
  buildApp,
  dataDirFor,
  isBuildFresh,
  markBuilt,
  remotes,
  repoRoot,
  runtimeConfigFor,
  shell,
} from './lib.mjs';

/**
 * `npm run deploy -- <remote>` and `npm run rollback -- <remote>`: each deployed version of a remote lives in its own
 * folder that is never written again, `DATA_DIR/deploy/<remote>/<version>/`, which the remote's static server serves
 * at `/v/<version>/`; going live is one atomic rewrite of the shell's runtime config (the one mutable file), so
 * `npm start` keeps serving throughout and nothing else is rebuilt. `history.json` beside the versions lists the
 * versions made live, oldest first: rollback drops the last and makes the one before it live again.
 */

/** Why a deploy or rollback did nothing: printed as is, without a stack, and the process exits 1. */
export class DeployRefused extends Error {}

// Versions rollback can walk back through, and events kept for the record: enough for a team, bounded on disk.
const HISTORY_VERSIONS = 20;
const HISTORY_EVENTS = 50;
// A build's stamp says when `npm start` built it, not what it is: two copies of one build differ only there.
const NOT_PART_OF_A_BUILD = new Set(['.build-stamp']);

export function remoteNamed(name) {
  const remote = remotes.find((candidate) => candidate.dir === name || candidate.federationName === name);
  if (!remote) {
    throw new DeployRefused(
      `${name ?? 'Nothing'} is not a remote; name one of: ${remotes.map((r) => r.dir).join(', ')}`,
    );
  }
  return remote;
}

/** Where one remote's deployed versions and history live under the data folder. */
export function deployPaths(dataDir, remote) {
  const root = path.join(dataDir, 'deploy', remote.dir);
  return {
    root,
    history: path.join(root, 'history.json'),
    lock: path.join(root, '.lock'),
    versionDir: (version) => path.join(root, version),
  };
}

/** The shell's runtime config file, as `npm start` writes and serves it. */
export const runtimeConfigFileFor = (dataDir) => path.join(dataDir, 'runtime', 'config.json');

/**
 * The manifest URL of one deployed version, on the origin (and base path) the config already names for that remote:
 * `http://localhost:3005/mf-manifest.json` and `http://localhost:3005/v/1.0.0/mf-manifest.json` both become
 * `http://localhost:3005/v/<version>/mf-manifest.json`.
 */
export function versionedManifestUrl(currentUrl, version) {
  const url = new URL(currentUrl);
  const base = url.pathname.match(/^(.*?)(?:\/v\/[^/]+)?\/mf-manifest\.json$/);
  if (!base) throw new DeployRefused(`${currentUrl} is not a manifest URL (…/mf-manifest.json)`);
  url.pathname = `${base[1]}/v/${version}/mf-manifest.json`;
  return url.href;
}

export function readHistory(paths) {
  try {
    const history = JSON.parse(fs.readFileSync(paths.history, 'utf8'));
    return { versions: history.versions ?? [], events: history.events ?? [] };
  } catch (error) {
    if (error.code === 'ENOENT') return { versions: [], events: [] };
    throw new DeployRefused(`${shown(paths.history)} cannot be read (${error.message})`);
  }
}

/** Writes a file so that a reader sees the old content or the new, never a part: a temporary file, then a rename. */
export function writeAtomically(file, text) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`,
  );
  const fd = fs.openSync(temporary, 'w');
  try {
    fs.writeFileSync(fd, text);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temporary, file);
}

function writeHistory(paths, history, event) {
  const versions = history.versions.slice(-HISTORY_VERSIONS);
  const events = [...history.events, { at: new Date().toISOString(), ...event }].slice(-HISTORY_EVENTS);
  writeAtomically(paths.history, `${JSON.stringify({ versions, events }, null, 2)}\n`);
}

function readJson(file, what) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    const reason = error.code === 'ENOENT' ? 'it does not exist' : error.message;
    throw new DeployRefused(`${what} ${shown(file)} cannot be read: ${reason}`);
  }
}

/** The runtime config as `npm start` wrote it, or as it would write it in a data folder it has not started from. */
function liveConfig(configFile, env) {
  return fs.existsSync(configFile) ? readJson(configFile, 'The runtime config') : runtimeConfigFor(env);
}

function liveManifestUrl({ config, configFile, remote }) {
  const url = config.remotes?.[remote.federationName];
  if (typeof url !== 'string') {
    throw new DeployRefused(
      `The runtime config ${shown(configFile)} names no manifest for ${remote.federationName}`,
    );
  }
  return url;
}

/**
 * Points the live runtime config's entry for `remote` at a deployed version, atomically. A data folder that has no
 * runtime config yet (never started) gets the one `npm start` would write, with that version in it. The read and the
 * rewrite hold the config's lock: every remote's deploy rewrites the whole file, so two unlocked would drop an entry.
 */
function switchLiveConfig({ configFile, remote, version, env }) {
  return withConfigLock(configFile, () => {
    const config = liveConfig(configFile, env);
    const previous = liveManifestUrl({ config, configFile, remote });
    const next = versionedManifestUrl(previous, version);
    if (next !== previous || !fs.existsSync(configFile)) {
      const updated = { ...config, remotes: { ...config.remotes, [remote.federationName]: next } };
      writeAtomically(configFile, `${JSON.stringify(updated, null, 2)}\n`);
    }
    return { previous, next };
  });
}

/**
 * Reads the live config back after a switch, so success is never reported for an entry something else (a writer
 * that takes no lock, such as `npm start` writing a fresh config) has replaced in the meantime.
 */
function assertLive({ configFile, remote, url }) {
  const live = readJson(configFile, 'The runtime config').remotes?.[remote.federationName];
  if (live !== url) {
    throw new DeployRefused(
      `The runtime config ${shown(configFile)} was rewritten by another process: it names ${live} for ` +
        `${remote.federationName}, not ${url}. Nothing is recorded as live; run the command again.`,
    );
  }
}

// A config rewrite takes milliseconds: a deploy of another remote waits this long for it before giving up.
const CONFIG_LOCK_WAIT_MS = 10_000;
const CONFIG_LOCK_POLL_MS = 10;

/**
 * Runs `work` (synchronous) holding `<config>.lock`, created with O_EXCL and holding its holder's process id. A lock
 * whose holder has exited is taken over; one held longer than CONFIG_LOCK_WAIT_MS is refused, naming the holder.
 */
function withConfigLock(configFile, work) {
  const lock = `${configFile}.lock`;
  const token = `${process.pid} ${crypto.randomBytes(4).toString('hex')}`;
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  const giveUpAt = Date.now() + CONFIG_LOCK_WAIT_MS;
  for (;;) {
    try {
      fs.writeFileSync(lock, token, { flag: 'wx' });
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') {
        throw new DeployRefused(`Cannot take the runtime config's lock ${shown(lock)}: ${error.message}`);
      }
    }
    const held = readLock(lock);
    if (held === null) continue;
    const holder = Number.parseInt(held, 10);
    // An empty lock is being written by its holder this instant.
    if (held !== '' && !isAlive(holder)) {
      takeOverStaleLock(lock, held);
    } else if (Date.now() > giveUpAt) {
      throw new DeployRefused(
        `The runtime config ${shown(configFile)} has been locked by process ${holder || 'unknown'} for over ` +
          `${CONFIG_LOCK_WAIT_MS / 1000} s; the live config is unchanged. If no deploy, rollback or npm start is ` +
          `running, delete ${shown(lock)} and try again.`,
      );
    } else {
      sleep(CONFIG_LOCK_POLL_MS);
    }
  }
  try {
    return work();
  } finally {
    // Only its own: a lock taken over from this process (it was thought dead) belongs to the one that took it.
    if (readLock(lock) === token) fs.rmSync(lock, { force: true });
  }
}

function readLock(lock) {
  try {
    return fs.readFileSync(lock, 'utf8');
  } catch (error) {
    if (error.code === 'ENOENT') return null;
    throw new DeployRefused(`Cannot read the runtime config's lock ${shown(lock)}: ${error.message}`);
  }
}

/**
 * Removes a dead holder's lock. Moved aside first and checked there: two deploys that both found it stale must not
 * both remove it, the second removing the lock the first has just taken. A live lock moved by mistake goes back.
 */
function takeOverStaleLock(lock, staleContent) {
  const aside = `${lock}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.stale`;
  try {
    fs.renameSync(lock, aside);
  } catch (error) {
    if (error.code === 'ENOENT') return;
    throw error;
  }
  if (readLock(aside) !== staleContent) {
    try {
      fs.linkSync(aside, lock);
    } catch {
      // A third deploy took the lock meanwhile; the holder moved aside finds it is no longer its own on release.
    }
  }
  fs.rmSync(aside, { force: true });
}

/** Blocks this process for `ms`: the lock is also taken by `npm start`'s synchronous start-up (pinDeployedVersions). */
function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Holds the remote's deploy lock while `work` runs, so two deploys or rollbacks never interleave their writes. */
async function withLock(paths, remote, work) {
  fs.mkdirSync(paths.root, { recursive: true });
  for (let attempt = 0; ; attempt += 1) {
    try {
      fs.writeFileSync(paths.lock, String(process.pid), { flag: 'wx' });
      break;
    } catch (error) {
      if (error.code !== 'EEXIST' || attempt > 0) throw lockError(paths, remote, error);
      const holder = Number(fs.readFileSync(paths.lock, 'utf8'));
      if (isAlive(holder)) throw lockError(paths, remote, error, holder);
      // Left by a deploy that was killed: nothing holds it any more.
      fs.rmSync(paths.lock, { force: true });
    }
  }
  try {
    return await work();
  } finally {
    fs.rmSync(paths.lock, { force: true });
  }
}

function lockError(paths, remote, error, holder) {
  return new DeployRefused(
    holder
      ? `Another deploy or rollback of ${remote.dir} is running (process ${holder}); try again when it has finished`
      : `Cannot take the deploy lock ${shown(paths.lock)}: ${error.message}`,
  );
}

function isAlive(pid) {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** Every file of a build folder by its path inside it, with a digest of its bytes. */
export function buildDigest(dir) {
  const digests = new Map();
  for (const relative of fs.readdirSync(dir, { recursive: true }).map(String).sort()) {
    if (NOT_PART_OF_A_BUILD.has(path.basename(relative))) continue;
    const file = path.join(dir, relative);
    if (!fs.statSync(file).isFile()) continue;
    digests.set(relative, crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex'));
  }
  return digests;
}

function sameBuild(left, right) {
  return left.size === right.size && [...left].every(([file, digest]) => right.get(file) === digest);
}

const isInside = (dir, file) => file === dir || file.startsWith(dir + path.sep);

/**
 * The links in a build folder that a deploy must not publish, each shown with its target and why. The copy follows
 * links, so a link leading outside the folder would publish what it points at under /v/<version>/, and a link to a
 * folder could lead back to one holding it (the copy would never end). A link to a file inside is copied as that file.
 */
function unpublishableLinks(dir) {
  const found = [];
  for (const relative of linksIn(dir)) {
    const link = path.join(dir, relative);
    const shownLink = `${relative} -> ${fs.readlinkSync(link)}`;
    let target;
    try {
      target = fs.realpathSync(link);
    } catch {
      found.push(`${shownLink} (it leads nowhere)`);
      continue;
    }
    if (!isInside(dir, target)) found.push(`${shownLink} (outside the build)`);
    else if (!fs.statSync(target).isFile()) found.push(`${shownLink} (a folder)`);
  }
  return found;
}

/** The links under `dir`, by their paths inside it; never descends into one (recursive readdir does in Node 20). */
function linksIn(dir, inside = '') {
  return fs
    .readdirSync(path.join(dir, inside), { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const relative = path.join(inside, entry.name);
      if (entry.isSymbolicLink()) return [relative];
      return entry.isDirectory() ? linksIn(dir, relative) : [];
    });
}

/**
 * Every file a build's manifest names, as the federation runtime joins them: its entry, every expose's and shared
 * module's chunks, and the optional ones (server entry, types, shared fallbacks) where it names any.
 */
function filesNamedBy(manifest) {
  const { remoteEntry, ssrRemoteEntry, types } = manifest.metaData ?? {};
  // A file's folder and name, as the runtime joins them; no name (types when none are built) names no file.
  const joined = (entry) =>
    typeof entry?.name === 'string' && entry.name !== ''
      ? path.join(String(entry.path ?? ''), entry.name)
      : entry?.name;
  const named = [joined(remoteEntry)];
  const optional = [joined(ssrRemoteEntry), joined(types), types?.zip, types?.api];
  for (const module of [...(manifest.exposes ?? []), ...(manifest.shared ?? [])]) {
    for (const kind of ['js', 'css']) {
      for (const when of ['sync', 'async']) named.push(...(module.assets?.[kind]?.[when] ?? []));
    }
    optional.push(module.fallback);
  }
  return [...named, ...optional.filter((file) => file !== undefined && file !== '')];
}

/**
 * The files a build's manifest names outside the build folder (the static server would never serve them, and a name
 * like `../../etc/passwd` must not pass for a file of the build), and those the folder does not hold.
 */
function unservableFiles(manifest, dir) {
  const outside = [];
  const missing = [];
  for (const file of filesNamedBy(manifest)) {
    const resolved = typeof file === 'string' ? path.resolve(dir, file) : null;
    if (resolved !== null && !isInside(dir, resolved)) outside.push(file);
    else if (resolved === null || !fs.statSync(resolved, { throwIfNoEntry: false })?.isFile())
      missing.push(file);
  }
  return { outside, missing };
}

async function readShellManifest(source) {
  if (/^https?:\/\//.test(source)) {
    let response;
    try {
      response = await fetch(source, { signal: AbortSignal.timeout(10_000) });
    } catch (error) {
      throw new DeployRefused(`The live shell's manifest ${source} cannot be fetched: ${error.message}`);
    }
    if (!response.ok)
      throw new DeployRefused(`The live shell's manifest ${source} answered ${response.status}`);
    return response.json();
  }
  return readJson(source, "The live shell's manifest");
}

/**
 * Deploys one remote: its build (`from`, else its dist, built first when missing or stale), checked by the gate
 * against the live shell's manifest (`shellManifest`: a file or URL, by default the shell's build that `npm start`
 * serves), copied to its version's folder unless that folder already holds exactly this build, then made live.
 * Throws DeployRefused, with the live config untouched, when any step says no. `log` gets each step's line.
 */
export async function deployRemote({ remote, env = process.env, from, shellManifest, log = console.log }) {
  const dataDir = dataDirFor(env);
  const paths = deployPaths(dataDir, remote);
  let source = from ? path.resolve(from) : path.join(repoRoot, remote.dir, 'dist');
  if (from && !fs.existsSync(source)) throw new DeployRefused(`${shown(source)} is not a build folder`);
  if (!from) {
    if (isBuildFresh(remote)) {
      log(`${remote.dir}: its build is up to date`);
    } else {
      const seconds = await buildApp(remote);
      markBuilt(remote);
      log(`${remote.dir}: built in ${seconds.toFixed(1)} s`);
    }
  }
  source = fs.realpathSync(source);
  const links = unpublishableLinks(source);
  if (links.length > 0) {
    throw new DeployRefused(
      `${shown(source)} holds links a deploy cannot publish: ${links.join(', ')}. Nothing is published; ` +
        `put the files themselves in the build.`,
    );
  }
  const manifest = readJson(path.join(source, 'mf-manifest.json'), 'The build manifest');
  const version = manifest.metaData?.buildInfo?.buildVersion;
  if (!isVersion(version)) {
    throw new DeployRefused(
      `${shown(source)} is built as version ${JSON.stringify(version)}, which is not a semver version ` +
        `(it comes from ${remote.dir}/package.json)`,
    );
  }
  const { outside, missing } = unservableFiles(manifest, source);
  if (outside.length > 0) {
    throw new DeployRefused(
      `${shown(source)}: its manifest names files outside it: ${outside.join(', ')}. ` +
        `A deploy publishes only the build folder.`,
    );
  }
  if (missing.length > 0) {
    throw new DeployRefused(`${shown(source)} lacks files its manifest names: ${missing.join(', ')}`);
  }

  const shellSource = shellManifest ?? path.join(repoRoot, shell.dir, 'dist', 'mf-manifest.json');
  const liveShell = await readShellManifest(shellSource);
  const configFile = runtimeConfigFileFor(dataDir);
  const remoteOrigin = new URL(liveManifestUrl({ config: liveConfig(configFile, env), configFile, remote }))
    .origin;
  const problems = compatibilityProblems({
    remote,
    remoteManifest: manifest,
    shellManifest: liveShell,
    remoteOrigin,
  });
  if (problems.length > 0) {
    throw new DeployRefused(
      [
        `${remote.dir} ${version} is refused by the compatibility gate; the live config is unchanged.`,
        ...problems.map((problem) => `  - ${problem}`),
        `  (the live shell: ${shown(shellSource)})`,
      ].join('\n'),
    );
  }
  log(`${remote.dir} ${version}: the gate passes against ${shown(shellSource)}`);
  log(`  exposes ${remote.pages.map((page) => page.expose).join(', ')}`);
  log(`  singletons: ${compatibilitySummary({ remoteManifest: manifest, shellManifest: liveShell })}`);

  return withLock(paths, remote, () => {
    const target = paths.versionDir(version);
    const built = buildDigest(source);
    if (fs.existsSync(target)) {
      if (!sameBuild(built, buildDigest(target))) {
        throw new DeployRefused(
          `${shown(target)} already holds a different build of ${remote.dir} ${version}, and a deployed ` +
            `version is never overwritten: bump the version in ${remote.dir}/package.json ` +
            `(npx lerna version) and deploy again. The live config is unchanged.`,
        );
      }
      log(`  ${shown(target)} already holds this build`);
    } else {
      // Copied whole under a temporary name first: a version folder, once it exists, is complete.
      const copying = path.join(paths.root, `.${version}.${process.pid}.tmp`);
      fs.rmSync(copying, { recursive: true, force: true });
      fs.cpSync(source, copying, {
        recursive: true,
        dereference: true,
        filter: (file) => !NOT_PART_OF_A_BUILD.has(path.basename(file)),
      });
      fs.renameSync(copying, target);
      log(`  copied to ${shown(target)} (${built.size} files)`);
    }

    const history = readHistory(paths);
    const { previous, next } = switchLiveConfig({ configFile, remote, version, env });
    assertLive({ configFile, remote, url: next });
    if (previous === next && history.versions.at(-1) === version) {
      log(`${remote.dir} ${version} was already live: nothing changed.`);
      return { version, url: next, previous };
    }
    if (history.versions.at(-1) !== version) history.versions.push(version);
    writeHistory(paths, history, { action: 'deploy', version });
    log(`  live: ${next} (was ${previous})`);
    const before = history.versions.at(-2);
    log(
      `Deployed ${remote.dir} ${version}. Open pages load it on their next reload; ` +
        (before
          ? `npm run rollback -- ${remote.dir} makes ${before} live again.`
          : `it is the first version deployed here, so there is nothing to roll back to yet.`),
    );
    return { version, url: next, previous };
  });
}

/**
 * Makes the version deployed before the live one live again, without the gate (it was live before), provided its
 * folder is still there. Rollback after rollback walks further back, one deployed version each time; a version rolled
 * back from is left out of the way back, so a second rollback never brings the bad version back.
 */
export async function rollbackRemote({ remote, env = process.env, log = console.log }) {
  const dataDir = dataDirFor(env);
  const paths = deployPaths(dataDir, remote);
  return withLock(paths, remote, () => {
    const history = readHistory(paths);
    const [live, target] = [history.versions.at(-1), history.versions.at(-2)];
    if (target === undefined) {
      throw new DeployRefused(
        live === undefined
          ? `Nothing to roll back to: ${remote.dir} has never been deployed with npm run deploy here (${shown(paths.root)}).`
          : `Nothing to roll back to: ${live} is the only version of ${remote.dir} left in its history ` +
              `(${shown(paths.history)}). The live config is unchanged.`,
      );
    }
    const targetDir = paths.versionDir(target);
    if (!isVersion(target) || !fs.existsSync(path.join(targetDir, 'mf-manifest.json'))) {
      throw new DeployRefused(
        `Cannot roll back to ${remote.dir} ${target}: its folder ${shown(targetDir)} is gone. ` +
          `The live config is unchanged; deploy a version instead.`,
      );
    }
    const configFile = runtimeConfigFileFor(dataDir);
    const { previous, next } = switchLiveConfig({ configFile, remote, version: target, env });
    assertLive({ configFile, remote, url: next });
    history.versions.pop();
    writeHistory(paths, history, { action: 'rollback', from: live, version: target });
    log(`Rolled ${remote.dir} back from ${live} to ${target}.`);
    log(`  live: ${next} (was ${previous})`);
    const further = history.versions.at(-2);
    log(
      further
        ? `  Open pages load it on their next reload; another rollback would make ${further} live.`
        : `  Open pages load it on their next reload; ${target} is the oldest version left to roll back to.`,
    );
    return { version: target, url: next, previous };
  });
}

/**
 * For `npm start`: points the freshly written runtime config at each remote's live deployed version, so a restart
 * keeps what was deployed instead of quietly going back to the dist folders. Returns a line per remote it pinned.
 */
export function pinDeployedVersions({ dataDir, configFile, env = process.env }) {
  const lines = [];
  for (const remote of remotes) {
    const paths = deployPaths(dataDir, remote);
    try {
      const live = readHistory(paths).versions.at(-1);
      if (live === undefined) continue;
      if (!isVersion(live) || !fs.existsSync(path.join(paths.versionDir(live), 'mf-manifest.json'))) {
        throw new DeployRefused(`its deployed ${live} has no folder in ${shown(paths.root)}`);
      }
      switchLiveConfig({ configFile, remote, version: live, env });
      lines.push(`${remote.dir}: serving its deployed ${live} (${shown(paths.root)}), not its dist`);
    } catch (error) {
      // The product still starts: this remote is served from its dist, and the line says why.
      if (!(error instanceof DeployRefused)) throw error;
      lines.push(`${remote.dir}: serving its dist, not a deployed version: ${error.message}`);
    }
  }
  return lines;
}

/** A path as the person at the terminal knows it: relative to the repository when inside it. */
function shown(file) {
  if (/^https?:\/\//.test(file)) return file;
  const relative = path.relative(repoRoot, file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

async function main() {
  const { values, positionals } = parseArgs({
    options: {
      rollback: { type: 'boolean' },
      from: { type: 'string' },
      shell: { type: 'string' },
    },
    allowPositionals: true,
  });
  if (positionals.length !== 1) {
    throw new DeployRefused(
      'Usage: npm run deploy -- <remote> [--from <build folder>] [--shell <live shell mf-manifest.json file or URL>]\n' +
        '       npm run rollback -- <remote>',
    );
  }
  const remote = remoteNamed(positionals[0]);
  if (values.rollback) {
    if (values.from || values.shell) throw new DeployRefused('rollback takes only the remote');
    await rollbackRemote({ remote });
  } else {
    await deployRemote({ remote, from: values.from, shellManifest: values.shell });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((error) => {
    const expected = error instanceof DeployRefused || error.code?.startsWith('ERR_PARSE_ARGS');
    console.error(expected ? error.message : error);
    process.exit(1);
  });
}
