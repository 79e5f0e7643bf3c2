import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { after, afterEach, beforeEach, describe, it } from 'node:test';
import { createStaticServer, headersFollowingRuntimeConfig } from '@time-wallet/devkit/serve';
import { compatibilityProblems } from '../../shell/packages/devkit/bin/gate.mjs';
import {
  deployRemote,
  DeployRefused,
  pinDeployedVersions,
  rollbackRemote,
  versionedManifestUrl,
} from '../../shell/packages/devkit/bin/deploy.mjs';

const require = createRequire(import.meta.url);
const { remotes, repoRoot } = require('@time-wallet/devkit/apps');
const tags = remotes.find((remote) => remote.dir === 'mfe-tags');
const DEPLOY_SCRIPT = path.join(repoRoot, 'shell/packages/devkit/bin/deploy.mjs');

/** A live shell's manifest as its build writes it: what it provides, in which version. */
function shellManifest(provided = {}) {
  const versions = {
    react: '19.3.1',
    'react/jsx-runtime': '19.3.1',
    '@time-wallet/api': '1.4.2',
    ...provided,
  };
  return {
    name: 'shell',
    shared: Object.entries(versions).map(([name, version]) => ({ name, version, singleton: true })),
  };
}

/** A remote's manifest as its build writes it: name, version, the singletons it takes and what it exposes. */
function remoteManifest({
  name = 'mfe_tags',
  version = '1.0.0',
  requires = { react: '^19.3.1', '@time-wallet/api': '^1.2.0' },
  exposes = ['TagsPage'],
  chunk = 'TagsPage.0123abcd.js',
  metaData = {},
} = {}) {
  return {
    id: name,
    name,
    metaData: {
      name,
      buildInfo: { buildVersion: version, buildName: '@time-wallet/mfe-tags' },
      remoteEntry: { name: 'remoteEntry.js', path: '', type: 'global' },
      publicPath: 'auto',
      ...metaData,
    },
    shared: Object.entries(requires).map(([shared, requiredVersion]) => ({
      id: `${name}:${shared}`,
      name: shared,
      singleton: true,
      requiredVersion,
    })),
    exposes: exposes.map((expose) => ({
      id: `${name}:${expose}`,
      name: expose,
      path: `./${expose}`,
      assets: { js: { sync: [chunk], async: [] }, css: { sync: [], async: [] } },
    })),
  };
}

describe('the compatibility gate', () => {
  const gate = (manifest, shell = shellManifest()) =>
    compatibilityProblems({
      remote: tags,
      remoteManifest: manifest,
      shellManifest: shell,
      remoteOrigin: 'http://localhost:3905',
    });

  it('passes a build that exposes every registered page and whose singletons the shell satisfies', () => {
    assert.deepEqual(gate(remoteManifest()), []);
  });

  it('refuses a build that lacks an expose the registry loads, naming it and its route', () => {
    assert.deepEqual(gate(remoteManifest({ exposes: ['TagPage'] })), [
      "it does not expose TagsPage, which the shell's registry loads for /app/edit-tags (it exposes TagPage)",
    ]);
  });

  it('refuses a build against a breaking major of the api package, and one newer than the live shell', () => {
    assert.deepEqual(gate(remoteManifest({ requires: { '@time-wallet/api': '^2.0.0' } })), [
      '@time-wallet/api: it requires ^2.0.0, the live shell provides 1.4.2',
    ]);
    // Within the major, a remote built against a later minor needs what that minor added.
    assert.deepEqual(gate(remoteManifest({ requires: { '@time-wallet/api': '^1.5.0' } })), [
      '@time-wallet/api: it requires ^1.5.0, the live shell provides 1.4.2',
    ]);
  });

  it('checks caret, tilde and exact ranges the way npm does', () => {
    const verdict = (range, version) =>
      gate(remoteManifest({ requires: { react: range } }), shellManifest({ react: version })).length === 0;
    assert.equal(verdict('^19.0.0', '19.3.1'), true);
    assert.equal(verdict('^19.0.0', '20.0.0'), false);
    assert.equal(verdict('^0.2.0', '0.3.0'), false, 'below 1.0.0 a minor is breaking');
    assert.equal(verdict('~19.3.0', '19.3.9'), true);
    assert.equal(verdict('~19.3.0', '19.4.0'), false);
    assert.equal(verdict('19.3.1', '19.3.1'), true);
    assert.equal(verdict('19.3.1', '19.3.2'), false);
    assert.equal(verdict('^19.3.1', '19.4.0-rc.1'), false, 'a pre-release satisfies no plain range');
  });

  it('accepts any version where the build asks for none, and refuses a range it cannot read', () => {
    assert.deepEqual(gate(remoteManifest({ requires: { react: false, '@time-wallet/api': '*' } })), []);
    assert.deepEqual(gate(remoteManifest({ requires: { react: 'latest-ish' } })), [
      'react: its required version "latest-ish" is not a semver range',
    ]);
  });

  it('refuses a singleton the live shell does not provide', () => {
    assert.deepEqual(gate(remoteManifest({ requires: { 'react-hot-toast': '^2.6.1' } })), [
      "react-hot-toast: it needs the shell's copy (^2.6.1), and the live shell provides none",
    ]);
  });

  it('takes the files from beside the manifest or from the remote’s own origin, nowhere else', () => {
    const withPublicPath = (publicPath) => gate(remoteManifest({ metaData: { publicPath } }));
    assert.deepEqual(withPublicPath('http://localhost:3905/v/1.0.0/'), []);
    for (const publicPath of [
      'https://evil.example/tags/',
      'http://localhost:3902/',
      'http://localhost:39051/',
      '//evil.example/',
      '/v/1.0.0/',
      'javascript:alert(1)//',
      undefined,
    ]) {
      assert.deepEqual(
        withPublicPath(publicPath),
        [
          `metaData.publicPath is ${publicPath === undefined ? 'missing' : JSON.stringify(publicPath)}: ` +
            'it must be "auto" or a URL on http://localhost:3905, where mfe-tags is served',
        ],
        String(publicPath),
      );
    }
  });

  it('refuses a getPublicPath, which the federation runtime would run as code, and an ssrPublicPath', () => {
    const code = 'return "https://evil.example/"';
    assert.deepEqual(gate(remoteManifest({ metaData: { publicPath: undefined, getPublicPath: code } })), [
      "metaData.getPublicPath is code the federation runtime would run in the shell's pages: " +
        'only metaData.publicPath is accepted',
      'metaData.publicPath is missing: it must be "auto" or a URL on http://localhost:3905, where mfe-tags is served',
    ]);
    assert.deepEqual(
      gate(remoteManifest({ metaData: { getPublicPath: code } })).length,
      1,
      'even beside one',
    );
    assert.deepEqual(gate(remoteManifest({ metaData: { ssrPublicPath: 'https://evil.example/' } })), [
      'metaData.ssrPublicPath names a second place to load files from: only metaData.publicPath is accepted',
    ]);
  });

  it('ignores shared modules that are not singletons, and refuses another remote’s manifest', () => {
    const manifest = remoteManifest();
    manifest.shared.push({ name: 'date-fns', singleton: false, requiredVersion: '^9.0.0' });
    assert.deepEqual(gate(manifest), []);
    assert.deepEqual(gate(remoteManifest({ name: 'mfe_wallet' })), [
      "the manifest is mfe_wallet's, not mfe_tags's (mfe-tags)",
    ]);
  });
});

describe('deploy and rollback', () => {
  let workDir;
  let dataDir;
  let env;
  let shellFile;
  let configFile;
  const logged = [];
  const log = (line) => logged.push(line);

  /** Writes a build folder the way webpack does: manifest, entry and the expose's chunk. */
  function writeBuild(name, { text = 'export default 1;', stamp, ...manifestOptions } = {}) {
    const dir = path.join(workDir, 'builds', name);
    fs.mkdirSync(dir, { recursive: true });
    const manifest = remoteManifest(manifestOptions);
    fs.writeFileSync(path.join(dir, 'mf-manifest.json'), JSON.stringify(manifest));
    fs.writeFileSync(path.join(dir, 'remoteEntry.js'), `/* ${manifest.metaData.buildInfo.buildVersion} */`);
    fs.writeFileSync(path.join(dir, manifest.exposes[0]?.assets.js.sync[0] ?? 'none.js'), text);
    if (stamp) fs.writeFileSync(path.join(dir, '.build-stamp'), stamp);
    return dir;
  }

  const deploy = (from, options = {}) =>
    deployRemote({ remote: tags, env, from, shellManifest: shellFile, log, ...options });
  const rollback = () => rollbackRemote({ remote: tags, env, log });
  const liveUrl = () => JSON.parse(fs.readFileSync(configFile, 'utf8')).remotes.mfe_tags;
  const versionsIn = () =>
    JSON.parse(fs.readFileSync(path.join(dataDir, 'deploy/mfe-tags/history.json'), 'utf8')).versions;

  async function refused(promise, pattern) {
    await assert.rejects(promise, (error) => {
      assert.ok(error instanceof DeployRefused, `a refusal, not ${error.stack}`);
      assert.match(error.message, pattern);
      return true;
    });
  }

  beforeEach(() => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'time-wallet-deploy-'));
    dataDir = path.join(workDir, 'data');
    env = { ...process.env, DATA_DIR: dataDir, TAGS_PORT: '3905', SHELL_PORT: '3900' };
    shellFile = path.join(workDir, 'shell-manifest.json');
    fs.writeFileSync(shellFile, JSON.stringify(shellManifest()));
    configFile = path.join(dataDir, 'runtime', 'config.json');
    // As `npm start` writes it.
    fs.mkdirSync(path.dirname(configFile), { recursive: true });
    fs.writeFileSync(
      configFile,
      JSON.stringify({
        apiBaseUrl: 'http://localhost:3999/api',
        remotes: {
          mfe_wallet: 'http://localhost:3902/mf-manifest.json',
          mfe_tags: 'http://localhost:3905/mf-manifest.json',
        },
      }),
    );
    logged.length = 0;
  });
  afterEach(() => fs.rmSync(workDir, { recursive: true, force: true }));

  it('copies a build to its version folder and switches only that remote’s line, by renaming a whole file', async () => {
    const inodeBefore = fs.statSync(configFile).ino;
    const result = await deploy(writeBuild('a', { version: '1.0.0', stamp: 'built at noon' }));
    assert.equal(result.version, '1.0.0');
    assert.equal(liveUrl(), 'http://localhost:3905/v/1.0.0/mf-manifest.json');
    const config = JSON.parse(fs.readFileSync(configFile, 'utf8'));
    assert.equal(
      config.remotes.mfe_wallet,
      'http://localhost:3902/mf-manifest.json',
      'other remotes untouched',
    );
    assert.equal(config.apiBaseUrl, 'http://localhost:3999/api');
    assert.notEqual(fs.statSync(configFile).ino, inodeBefore, 'a new file renamed into place, not rewritten');
    assert.deepEqual(
      fs.readdirSync(path.dirname(configFile)),
      ['config.json'],
      'no temporary file left behind',
    );
    const folder = path.join(dataDir, 'deploy/mfe-tags/1.0.0');
    assert.deepEqual(fs.readdirSync(folder).sort(), [
      'TagsPage.0123abcd.js',
      'mf-manifest.json',
      'remoteEntry.js',
    ]);
    assert.deepEqual(versionsIn(), ['1.0.0']);
    assert.match(logged.join('\n'), /the gate passes/);
    assert.match(logged.join('\n'), /nothing to roll back to yet/);
  });

  it('treats a second deploy of the same build as nothing to do, whatever its build stamp says', async () => {
    await deploy(writeBuild('a', { version: '1.0.0', stamp: 'built at noon' }));
    const configBefore = fs.readFileSync(configFile, 'utf8');
    logged.length = 0;
    await deploy(writeBuild('b', { version: '1.0.0', stamp: 'built again at one' }));
    assert.equal(fs.readFileSync(configFile, 'utf8'), configBefore);
    assert.deepEqual(versionsIn(), ['1.0.0']);
    assert.match(logged.join('\n'), /already holds this build/);
    assert.match(logged.join('\n'), /1\.0\.0 was already live: nothing changed/);
  });

  it('never overwrites a deployed version with a different build, and asks for a version bump', async () => {
    await deploy(writeBuild('a', { version: '1.0.0', text: 'export default "first";' }));
    const configBefore = fs.readFileSync(configFile, 'utf8');
    await refused(
      deploy(writeBuild('b', { version: '1.0.0', text: 'export default "second";' })),
      /already holds a different build of mfe-tags 1\.0\.0.*bump the version in mfe-tags\/package\.json/s,
    );
    assert.equal(fs.readFileSync(configFile, 'utf8'), configBefore);
    assert.equal(
      fs.readFileSync(path.join(dataDir, 'deploy/mfe-tags/1.0.0/TagsPage.0123abcd.js'), 'utf8'),
      'export default "first";',
    );
  });

  it('refuses what the gate refuses before copying anything, and leaves the live config as it was', async () => {
    const configBefore = fs.readFileSync(configFile, 'utf8');
    await refused(
      deploy(writeBuild('breaking', { version: '2.0.0', requires: { '@time-wallet/api': '^2.0.0' } })),
      /mfe-tags 2\.0\.0 is refused by the compatibility gate; the live config is unchanged\.\n {2}- @time-wallet\/api: it requires \^2\.0\.0, the live shell provides 1\.4\.2/,
    );
    await refused(
      deploy(writeBuild('no-page', { version: '1.1.0', exposes: ['SomethingElse'] })),
      /does not expose TagsPage/,
    );
    assert.equal(fs.readFileSync(configFile, 'utf8'), configBefore);
    assert.equal(fs.existsSync(path.join(dataDir, 'deploy/mfe-tags/2.0.0')), false);
    assert.equal(fs.existsSync(path.join(dataDir, 'deploy/mfe-tags/1.1.0')), false);
  });

  it('refuses a version that is not plain semver, and a build missing a file its manifest names', async () => {
    for (const version of ['../../runtime', 'latest', 'v1.0.0', '']) {
      await refused(deploy(writeBuild(`bad-${version.length}`, { version })), /is not a semver version/);
    }
    const incomplete = writeBuild('incomplete', { version: '1.0.0' });
    fs.rmSync(path.join(incomplete, 'TagsPage.0123abcd.js'));
    await refused(deploy(incomplete), /lacks files its manifest names: TagsPage\.0123abcd\.js/);
    assert.equal(fs.existsSync(path.join(dataDir, 'deploy/mfe-tags/1.0.0')), false);
  });

  it('refuses a build holding a link that leads outside it or loops, publishing nothing', async () => {
    const configBefore = fs.readFileSync(configFile, 'utf8');
    fs.writeFileSync(path.join(workDir, 'secret.txt'), 'outside the build');
    fs.mkdirSync(path.join(workDir, 'outside'));
    fs.writeFileSync(path.join(workDir, 'outside', 'key.pem'), 'outside the build');
    const links = {
      'leak.txt': path.join(workDir, 'secret.txt'),
      'relative.txt': '../../secret.txt',
      assets: path.join(workDir, 'outside'),
      'nowhere.js': 'missing.js',
      loop: '.',
    };
    for (const [name, target] of Object.entries(links)) {
      const build = writeBuild(`link-${name}`, { version: '1.0.0' });
      fs.symlinkSync(target, path.join(build, name));
      await refused(
        deploy(build),
        new RegExp(`holds links a deploy cannot publish: ${name.replace('.', '\\.')} -> `),
      );
    }
    assert.equal(fs.readFileSync(configFile, 'utf8'), configBefore);
    assert.equal(fs.existsSync(path.join(dataDir, 'deploy/mfe-tags')), false, 'nothing copied');

    // A link to a file inside the build is published as a copy of that file.
    const inside = writeBuild('link-inside', { version: '1.0.0' });
    fs.mkdirSync(path.join(inside, 'assets'));
    fs.symlinkSync('../remoteEntry.js', path.join(inside, 'assets', 'entry.js'));
    await deploy(inside);
    const copied = path.join(dataDir, 'deploy/mfe-tags/1.0.0/assets/entry.js');
    assert.equal(fs.lstatSync(copied).isFile(), true);
    assert.equal(fs.readFileSync(copied, 'utf8'), '/* 1.0.0 */');
  });

  it('refuses a manifest naming files outside the build, wherever it names them', async () => {
    const configBefore = fs.readFileSync(configFile, 'utf8');
    fs.writeFileSync(path.join(workDir, 'secret.txt'), 'outside the build');
    /** A complete build whose manifest is then changed by `edit`. */
    const buildNaming = (name, edit) => {
      const dir = writeBuild(name, { version: '1.0.0' });
      const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'mf-manifest.json'), 'utf8'));
      edit(manifest);
      fs.writeFileSync(path.join(dir, 'mf-manifest.json'), JSON.stringify(manifest));
      return dir;
    };
    const outsideFile = path.join(workDir, 'secret.txt');
    const cases = [
      ['../../secret.txt', (manifest) => manifest.exposes[0].assets.js.sync.push('../../secret.txt')],
      [outsideFile, (manifest) => manifest.exposes[0].assets.css.async.push(outsideFile)],
      // Another build's entry, beside this one: it exists, but this build would not publish it.
      ['../outside-0/remoteEntry.js', (manifest) => (manifest.metaData.remoteEntry.path = '../outside-0')],
      [
        '../../secret.txt',
        (manifest) => (manifest.shared[0].assets = { js: { sync: ['../../secret.txt'] } }),
      ],
    ];
    for (const [index, [file, edit]] of cases.entries()) {
      await refused(
        deploy(buildNaming(`outside-${index}`, edit)),
        new RegExp(
          `its manifest names files outside it: ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\. ` +
            'A deploy publishes only the build folder\\.',
        ),
      );
    }
    assert.equal(fs.readFileSync(configFile, 'utf8'), configBefore);
    assert.equal(fs.existsSync(path.join(dataDir, 'deploy/mfe-tags')), false, 'nothing copied');
  });

  it('refuses a build that loads its files from another origin than the remote’s in the live config', async () => {
    const configBefore = fs.readFileSync(configFile, 'utf8');
    await refused(
      deploy(
        writeBuild('wallet-origin', { version: '1.0.0', metaData: { publicPath: 'http://localhost:3902/' } }),
      ),
      /metaData\.publicPath is "http:\/\/localhost:3902\/": it must be "auto" or a URL on http:\/\/localhost:3905/,
    );
    assert.equal(fs.readFileSync(configFile, 'utf8'), configBefore);
    const own = 'http://localhost:3905/v/1.0.0/';
    await deploy(writeBuild('own-origin', { version: '1.0.0', metaData: { publicPath: own } }));
    assert.equal(liveUrl(), 'http://localhost:3905/v/1.0.0/mf-manifest.json');
  });

  it('writes the runtime config npm start would write when the data folder has none yet', async () => {
    fs.rmSync(configFile);
    await deploy(writeBuild('a', { version: '1.0.0' }));
    const config = JSON.parse(fs.readFileSync(configFile, 'utf8'));
    assert.equal(config.remotes.mfe_tags, 'http://localhost:3905/v/1.0.0/mf-manifest.json');
    assert.equal(config.remotes.mfe_wallet, 'http://localhost:3002/mf-manifest.json');
  });

  it('rolls back one deployed version at a time, and says when there is nothing left to roll back to', async () => {
    await refused(rollback(), /Nothing to roll back to: mfe-tags has never been deployed/);
    for (const version of ['1.0.0', '1.1.0', '1.2.0'])
      await deploy(writeBuild(version, { version, text: version }));
    assert.deepEqual(versionsIn(), ['1.0.0', '1.1.0', '1.2.0']);

    logged.length = 0;
    await rollback();
    assert.equal(liveUrl(), 'http://localhost:3905/v/1.1.0/mf-manifest.json');
    assert.match(
      logged.join('\n'),
      /Rolled mfe-tags back from 1\.2\.0 to 1\.1\.0.*another rollback would make 1\.0\.0 live/s,
    );
    // Rollback after rollback goes further back; it never returns to the version it left.
    await rollback();
    assert.equal(liveUrl(), 'http://localhost:3905/v/1.0.0/mf-manifest.json');
    const configBefore = fs.readFileSync(configFile, 'utf8');
    await refused(rollback(), /Nothing to roll back to: 1\.0\.0 is the only version of mfe-tags left/);
    assert.equal(fs.readFileSync(configFile, 'utf8'), configBefore);
    // The versions rolled back from stay on disk and served, and deploy makes one live again.
    assert.ok(fs.existsSync(path.join(dataDir, 'deploy/mfe-tags/1.2.0/mf-manifest.json')));
    await deploy(path.join(workDir, 'builds', '1.2.0'));
    assert.deepEqual(versionsIn(), ['1.0.0', '1.2.0']);
    const events = JSON.parse(
      fs.readFileSync(path.join(dataDir, 'deploy/mfe-tags/history.json'), 'utf8'),
    ).events;
    assert.deepEqual(
      events.map(({ action, version }) => `${action} ${version}`),
      ['deploy 1.0.0', 'deploy 1.1.0', 'deploy 1.2.0', 'rollback 1.1.0', 'rollback 1.0.0', 'deploy 1.2.0'],
    );
  });

  it('refuses to roll back to a version whose folder is gone', async () => {
    await deploy(writeBuild('a', { version: '1.0.0' }));
    await deploy(writeBuild('b', { version: '1.1.0' }));
    fs.rmSync(path.join(dataDir, 'deploy/mfe-tags/1.0.0'), { recursive: true });
    const configBefore = fs.readFileSync(configFile, 'utf8');
    await refused(rollback(), /Cannot roll back to mfe-tags 1\.0\.0: its folder .* is gone/);
    assert.equal(fs.readFileSync(configFile, 'utf8'), configBefore);
  });

  it('keeps its history bounded', async () => {
    for (let minor = 0; minor < 23; minor += 1) {
      const version = `1.${minor}.0`;
      await deploy(writeBuild(version, { version, text: version }));
    }
    const history = JSON.parse(fs.readFileSync(path.join(dataDir, 'deploy/mfe-tags/history.json'), 'utf8'));
    assert.equal(history.versions.length, 20);
    assert.equal(history.versions.at(-1), '1.22.0');
  });

  it('waits for no one: a deploy of the same remote under way refuses a second, a dead one’s lock is taken', async () => {
    const lock = path.join(dataDir, 'deploy/mfe-tags/.lock');
    fs.mkdirSync(path.dirname(lock), { recursive: true });
    fs.writeFileSync(lock, String(process.pid));
    await refused(
      deploy(writeBuild('a', { version: '1.0.0' })),
      /Another deploy or rollback of mfe-tags is running/,
    );
    const exited = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    fs.writeFileSync(lock, exited.stdout.toString());
    await deploy(writeBuild('a', { version: '1.0.0' }));
    assert.equal(fs.existsSync(lock), false, 'released');
  });

  it('keeps live every one of several concurrent deploys of different remotes that says it deployed', async () => {
    // Each remote on its own origin, as npm start writes the config.
    fs.writeFileSync(
      configFile,
      JSON.stringify({
        apiBaseUrl: 'http://localhost:3999/api',
        remotes: Object.fromEntries(
          remotes.map((remote, index) => [
            remote.federationName,
            `http://localhost:${3910 + index}/mf-manifest.json`,
          ]),
        ),
      }),
    );
    const deployCommand = (remote, from) =>
      new Promise((resolve, reject) => {
        const child = spawn(
          process.execPath,
          [DEPLOY_SCRIPT, remote.dir, '--from', from, '--shell', shellFile],
          {
            env,
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        );
        let output = '';
        child.stdout.on('data', (chunk) => (output += chunk));
        child.stderr.on('data', (chunk) => (output += chunk));
        child.on('error', reject);
        child.on('exit', (code) => resolve({ code, output }));
      });
    const lost = [];
    const failed = [];
    // A lost update needs two rewrites to interleave: a few rounds make one near certain without the lock.
    for (let round = 0; round < 6; round += 1) {
      const version = `1.${round}.0`;
      const builds = remotes.map((remote) =>
        writeBuild(`${remote.dir}-${version}`, {
          name: remote.federationName,
          version,
          exposes: remote.pages.map((page) => page.expose),
        }),
      );
      const runs = await Promise.all(remotes.map((remote, index) => deployCommand(remote, builds[index])));
      const live = JSON.parse(fs.readFileSync(configFile, 'utf8')).remotes;
      for (const [index, remote] of remotes.entries()) {
        const { code, output } = runs[index];
        const saidDeployed = output.includes(`Deployed ${remote.dir} ${version}.`);
        if (saidDeployed && !live[remote.federationName].includes(`/v/${version}/`)) {
          lost.push(`${remote.dir} ${version} (live: ${live[remote.federationName]})`);
        }
        if (code !== 0 || !saidDeployed) failed.push(`${remote.dir} ${version}: ${output}`);
      }
    }
    assert.deepEqual(lost, [], 'said deployed, but the live config keeps another version');
    assert.deepEqual(failed, [], 'deploys of different remotes wait for each other, none fails');
    assert.deepEqual(fs.readdirSync(path.dirname(configFile)), ['config.json'], 'no lock left behind');
  });

  it('takes over the runtime config’s lock when the process that held it has exited', async () => {
    const exited = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    fs.writeFileSync(`${configFile}.lock`, `${exited.stdout} 0badc0de`);
    await deploy(writeBuild('a', { version: '1.0.0' }));
    assert.equal(liveUrl(), 'http://localhost:3905/v/1.0.0/mf-manifest.json');
    assert.deepEqual(
      fs.readdirSync(path.dirname(configFile)),
      ['config.json'],
      'released, nothing set aside',
    );
  });

  it('keeps what was deployed live when npm start writes a fresh config', async () => {
    await deploy(writeBuild('a', { version: '1.0.0' }));
    await deploy(writeBuild('b', { version: '1.1.0' }));
    await rollback();
    fs.writeFileSync(
      configFile,
      JSON.stringify({ apiBaseUrl: 'x', remotes: { mfe_tags: 'http://localhost:3905/mf-manifest.json' } }),
    );
    const lines = pinDeployedVersions({ dataDir, configFile, env });
    assert.equal(liveUrl(), 'http://localhost:3905/v/1.0.0/mf-manifest.json');
    assert.deepEqual(lines, [
      `mfe-tags: serving its deployed 1.0.0 (${path.join(dataDir, 'deploy/mfe-tags')}), not its dist`,
    ]);
  });

  it('starts on the dist, saying why, when the deployed version cannot be used', async () => {
    await deploy(writeBuild('a', { version: '1.0.0' }));
    fs.rmSync(path.join(dataDir, 'deploy/mfe-tags/1.0.0'), { recursive: true });
    const fresh = JSON.stringify({ remotes: { mfe_tags: 'http://localhost:3905/mf-manifest.json' } });
    fs.writeFileSync(configFile, fresh);
    assert.deepEqual(pinDeployedVersions({ dataDir, configFile, env }), [
      `mfe-tags: serving its dist, not a deployed version: its deployed 1.0.0 has no folder in ${path.join(dataDir, 'deploy/mfe-tags')}`,
    ]);
    fs.writeFileSync(path.join(dataDir, 'deploy/mfe-tags/history.json'), '{ half a file');
    assert.match(
      pinDeployedVersions({ dataDir, configFile, env }).join('\n'),
      /^mfe-tags: serving its dist, not a deployed version: .*history\.json cannot be read/,
    );
    assert.equal(fs.readFileSync(configFile, 'utf8'), fresh);
  });

  it('keeps the origin and base path of the remote’s manifest URL', () => {
    assert.equal(
      versionedManifestUrl('https://cdn.example/teams/tags/mf-manifest.json', '1.2.3'),
      'https://cdn.example/teams/tags/v/1.2.3/mf-manifest.json',
    );
    assert.equal(
      versionedManifestUrl('https://cdn.example/teams/tags/v/1.2.2/mf-manifest.json', '1.2.3'),
      'https://cdn.example/teams/tags/v/1.2.3/mf-manifest.json',
    );
    assert.throws(() => versionedManifestUrl('https://cdn.example/remoteEntry.js', '1.2.3'), DeployRefused);
  });

  it('prints what is wrong and exits 1 from the command line', () => {
    const run = (...args) => spawnSync(process.execPath, [DEPLOY_SCRIPT, ...args], { env, encoding: 'utf8' });
    const unknown = run('mfe-nothing');
    assert.equal(unknown.status, 1);
    assert.match(
      unknown.stderr,
      /^mfe-nothing is not a remote; name one of: mfe-auth, mfe-wallet, .*mfe-tags\n$/,
    );
    const usage = run();
    assert.equal(usage.status, 1);
    assert.match(usage.stderr, /^Usage: npm run deploy -- <remote>/);
    const breaking = writeBuild('breaking', { version: '2.0.0', requires: { '@time-wallet/api': '^2.0.0' } });
    const gate = run('mfe-tags', '--from', breaking, '--shell', shellFile);
    assert.equal(gate.status, 1);
    assert.match(gate.stderr, /@time-wallet\/api: it requires \^2\.0\.0, the live shell provides 1\.4\.2/);
    const nothing = run('--rollback', 'mfe-tags');
    assert.equal(nothing.status, 1);
    assert.match(nothing.stderr, /^Nothing to roll back to/);
  });
});

describe("a remote's static server with its deployed versions", () => {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'time-wallet-versions-'));
  const versionsDir = path.join(workDir, 'deploy', 'mfe-tags');
  const dist = path.join(workDir, 'dist');
  const configFile = path.join(workDir, 'config.json');
  let server;
  let origin;

  after(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  async function start() {
    fs.mkdirSync(path.join(versionsDir, '1.0.0'), { recursive: true });
    fs.mkdirSync(path.join(versionsDir, '.1.1.0.123.tmp'), { recursive: true });
    fs.mkdirSync(dist, { recursive: true });
    fs.writeFileSync(path.join(dist, 'remoteEntry.js'), 'dist entry');
    fs.writeFileSync(path.join(versionsDir, 'history.json'), '{"versions":["1.0.0"]}');
    fs.writeFileSync(path.join(versionsDir, '1.0.0', 'mf-manifest.json'), '{"name":"mfe_tags"}');
    fs.writeFileSync(path.join(versionsDir, '1.0.0', '__federation_expose_TagsPage.519cd113.js'), 'chunk');
    fs.writeFileSync(path.join(versionsDir, '.1.1.0.123.tmp', 'mf-manifest.json'), 'half copied');
    fs.writeFileSync(path.join(workDir, 'secret.txt'), 'outside');
    fs.symlinkSync(path.join(workDir, 'secret.txt'), path.join(versionsDir, '1.0.0', 'escape.txt'));
    fs.writeFileSync(
      configFile,
      JSON.stringify({
        apiBaseUrl: 'http://localhost:4999/api',
        remotes: { mfe_tags: 'http://localhost:3905/v/1.0.0/mf-manifest.json' },
      }),
    );
    server = createStaticServer({
      root: dist,
      allowedOrigins: ['http://localhost:3900'],
      headers: headersFollowingRuntimeConfig(configFile, { log: () => {} }),
      versionsDir,
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${server.address().port}`;
  }

  it('serves each version’s files under /v/<version>/ with the build folder’s caching and CORS', async () => {
    await start();
    const manifest = await fetch(`${origin}/v/1.0.0/mf-manifest.json`, {
      headers: { Origin: 'http://localhost:3900' },
    });
    assert.equal(manifest.status, 200);
    assert.equal(await manifest.text(), '{"name":"mfe_tags"}');
    assert.equal(manifest.headers.get('cache-control'), 'no-cache');
    assert.equal(manifest.headers.get('access-control-allow-origin'), 'http://localhost:3900');
    const chunk = await fetch(`${origin}/v/1.0.0/__federation_expose_TagsPage.519cd113.js`);
    assert.equal(chunk.status, 200);
    assert.equal(chunk.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal(await (await fetch(`${origin}/remoteEntry.js`)).text(), 'dist entry', 'the dist as before');
  });

  it('serves nothing beside the versions, no copy under way, and nothing outside', async () => {
    for (const target of [
      '/v/history.json',
      '/v/',
      '/v/1.0.0/',
      '/v/.1.1.0.123.tmp/mf-manifest.json',
      '/v/1.0.0/escape.txt',
      '/v/1.0.0/../history.json',
      '/v/..%2f..%2fsecret.txt',
      '/v/2.0.0/mf-manifest.json',
    ]) {
      const response = await fetch(`${origin}${target}`);
      await response.arrayBuffer();
      assert.equal(response.status, 404, target);
    }
  });

  it('sends a CSP that lets the shell run a versioned remote, which the config names by its origin', async () => {
    const response = await fetch(`${origin}/v/1.0.0/mf-manifest.json`);
    await response.arrayBuffer();
    const scripts = response.headers
      .get('content-security-policy')
      .split(';')
      .find((directive) => directive.trim().startsWith('script-src'));
    assert.equal(scripts.trim(), "script-src 'self' http://localhost:3905");
  });
});
