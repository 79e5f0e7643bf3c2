import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
// npm's own range check (a devkit dependency).
const semver = require('semver');
const { SINGLETONS } = require('../webpack/shared-modules.cjs');

/**
 * The compatibility gate a remote's build passes before it goes live: its files must load from where the remote is
 * served (`remoteOrigin`, the origin of its manifest URL in the live runtime config), every page the shell's registry
 * loads from it must be exposed, and every singleton it takes from the shell (a federated remote bundles none of
 * them) must be provided by the live shell in a version the build accepts. `remote` is the registry's entry
 * (apps.cjs); the manifests are the parsed mf-manifest.json of the remote's build and of the live shell's build.
 * Returns one line per problem, empty when the build may go live.
 */
export function compatibilityProblems({ remote, remoteManifest, shellManifest, remoteOrigin }) {
  if (remoteManifest?.name !== remote.federationName) {
    const name = typeof remoteManifest?.name === 'string' ? remoteManifest.name : 'an unnamed build';
    return [`the manifest is ${name}'s, not ${remote.federationName}'s (${remote.dir})`];
  }
  const problems = publicPathProblems({ remote, metaData: remoteManifest.metaData ?? {}, remoteOrigin });
  const exposed = (remoteManifest.exposes ?? []).map((expose) => expose.name);
  for (const page of remote.pages) {
    if (!exposed.includes(page.expose)) {
      problems.push(
        `it does not expose ${page.expose}, which the shell's registry loads for ${page.path} ` +
          `(it exposes ${exposed.join(', ') || 'nothing'})`,
      );
    }
  }
  const provided = providedVersions(shellManifest);
  for (const shared of singletonsOf(remoteManifest)) {
    const { range, unreadable } = requiredRange(shared);
    const version = provided.get(shared.name);
    if (unreadable) {
      // Not waved through: what the gate cannot read, it cannot vouch for.
      problems.push(`${shared.name}: its required version ${unreadable} is not a semver range`);
    } else if (version === undefined) {
      problems.push(`${shared.name}: it needs the shell's copy (${range}), and the live shell provides none`);
    } else if (!semver.satisfies(version, range)) {
      problems.push(`${shared.name}: it requires ${range}, the live shell provides ${version}`);
    }
  }
  return problems;
}

/**
 * The federation runtime loads a remote's files from its manifest's publicPath: "auto" is beside the manifest (so a
 * deployed version loads from its own folder), a URL must stay on the remote's origin. A getPublicPath is a string the
 * runtime runs as code in the shell's pages, and an ssrPublicPath another place to load from: neither is accepted.
 */
function publicPathProblems({ remote, metaData, remoteOrigin }) {
  const problems = [];
  if (Object.hasOwn(metaData, 'getPublicPath')) {
    problems.push(
      "metaData.getPublicPath is code the federation runtime would run in the shell's pages: " +
        'only metaData.publicPath is accepted',
    );
  }
  if (Object.hasOwn(metaData, 'ssrPublicPath')) {
    problems.push(
      'metaData.ssrPublicPath names a second place to load files from: only metaData.publicPath is accepted',
    );
  }
  const { publicPath } = metaData;
  if (publicPath !== 'auto' && (remoteOrigin === undefined || httpOriginOf(publicPath) !== remoteOrigin)) {
    problems.push(
      `metaData.publicPath is ${publicPath === undefined ? 'missing' : JSON.stringify(publicPath)}: it must be ` +
        `"auto" or a URL on ${remoteOrigin ?? "the remote's origin"}, where ${remote.dir} is served`,
    );
  }
  return problems;
}

/** The origin of an absolute http(s) URL; null for anything else (a relative path would load from the shell's). */
function httpOriginOf(url) {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : null;
  } catch {
    return null;
  }
}

/** What deploy prints when the gate passes: each singleton the build takes, its range and the shell's version. */
export function compatibilitySummary({ remoteManifest, shellManifest }) {
  const provided = providedVersions(shellManifest);
  return singletonsOf(remoteManifest)
    .map((shared) => `${shared.name} ${requiredRange(shared).range} (${provided.get(shared.name)})`)
    .join(', ');
}

/** What a host's manifest provides to its remotes: share name -> version. */
export function providedVersions(shellManifest) {
  return new Map((shellManifest?.shared ?? []).map((shared) => [shared.name, shared.version]));
}

/** The shared modules a build takes as singletons: those the devkit shares as such, or the manifest marks so. */
function singletonsOf(manifest) {
  return (manifest.shared ?? []).filter((shared) => shared.singleton || SINGLETONS.includes(shared.name));
}

/** The range a shared entry asks for ('*' when it takes any version), or the raw value when it is no range. */
function requiredRange(shared) {
  const range = shared.requiredVersion;
  if (range === false || range === undefined || range === '') return { range: '*' };
  if (typeof range !== 'string' || semver.validRange(range) === null) {
    return { unreadable: JSON.stringify(range) };
  }
  return { range };
}

/** A version a deployed folder may be named by: plain semver, so it can never be a path (no '/', no '..'). */
export const isVersion = (version) => typeof version === 'string' && semver.valid(version) === version;
