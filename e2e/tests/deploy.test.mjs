import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { apiClient, storeSession } from '../support/api-client.mjs';
import { launchBrowser } from '../support/browser.mjs';
import { buildRemoteVariant, digestTree } from '../support/remote-variant.mjs';
import { releaseTree } from '../support/release-build.mjs';
import { browserSuite } from '../support/suite.mjs';
import { sparePort } from '../support/stack.mjs';

const require = createRequire(import.meta.url);
const { repoRoot, remotes, shell, api } = require('@time-wallet/devkit/apps');

/**
 * Independent delivery of one remote, end to end: `npm start` serves the product while `npm run deploy` and
 * `npm run rollback` switch mfe-tags between versions, and the browser loads each one. Version skew both ways
 * within a major: the current shell with mfe-tags as it was at PREVIOUS_REMOTE, and the shell as it was at
 * PREVIOUS_SHELL with the current mfe-tags. Both are built from git (support/release-build.mjs); commits before
 * versioning began are all 0.0.0, so their packages are stamped with the working tree's versions.
 */
// The release of mfe-tags before it took its colour picker's fieldset from shared-ui (8fadca4).
const PREVIOUS_REMOTE = 'f9419c1';
// The oldest shell that provides that Fieldset, so the current mfe-tags can run in it; its shared-ui lacks what
// later commits added (formatMinutes, the repeat field), so it is a shell of an earlier release than the current.
const PREVIOUS_SHELL = '8fadca4';

const frontEndApps = [shell, ...remotes];
const tags = remotes.find((remote) => remote.dir === 'mfe-tags');
const versionIn = (dir) =>
  JSON.parse(fs.readFileSync(path.join(repoRoot, dir, 'package.json'), 'utf8')).version;
const TAGS_VERSION = versionIn('mfe-tags');
const [TAGS_MAJOR, TAGS_MINOR] = TAGS_VERSION.split('.').map(Number);
const API_MAJOR = Number(versionIn('shell/packages/api').split('.')[0]);
const NEXT_MINOR = `${TAGS_MAJOR}.${TAGS_MINOR + 1}.0`;
const NEXT_MAJOR = `${TAGS_MAJOR + 1}.0.0`;
const workDir = path.join(repoRoot, '.e2e-tmp', `deploy-${process.pid}`);

const manifestIn = (dir) => JSON.parse(fs.readFileSync(path.join(dir, 'mf-manifest.json'), 'utf8'));
const exposeChunkOf = (dir) => manifestIn(dir).exposes[0].assets.js.sync[0];

async function waitUntil(condition, what, attempts = 600) {
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(`gave up waiting until ${what}`);
}

/** `npm start` itself with the existing builds, on this run's spare ports and its own data folder. */
async function startProduct(dataDir) {
  const ports = Object.fromEntries(
    [...frontEndApps, api].map((app, index) => [app.portEnv, String(sparePort(index))]),
  );
  const env = { ...process.env, ...ports, SKIP_BUILD: '1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  const child = spawn(process.execPath, ['shell/packages/devkit/bin/start.mjs'], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const product = { child, env, output: '' };
  child.stdout.on('data', (chunk) => (product.output += chunk));
  child.stderr.on('data', (chunk) => (product.output += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await waitUntil(
    () => product.output.includes('Time Wallet is up') || child.exitCode !== null,
    'npm start is up',
  );
  assert.match(product.output, /Time Wallet is up/, product.output);
  const originOf = (app) => `http://localhost:${ports[app.portEnv]}`;
  return {
    ...product,
    shellUrl: originOf(shell),
    apiBaseUrl: `${originOf(api)}/api`,
    originOf,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** `npm run deploy` / `npm run rollback`, as a team runs them next to the running product. */
function npmRun(script, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', script, '--', ...args], {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('deploy and rollback of one remote while npm start serves', () => {
  const dataDir = path.join(workDir, 'data');
  const configFile = path.join(dataDir, 'runtime', 'config.json');
  const builds = {};
  let product;
  let browser;
  let page;
  let tagsOrigin;
  const requests = [];
  const cspViolations = [];
  const cleanUp = [];

  const liveConfig = () => JSON.parse(fs.readFileSync(configFile, 'utf8'));
  const heading = (name) => page.getByRole('heading', { level: 1, name, exact: true });
  const deploy = (...args) => npmRun('deploy', ['mfe-tags', ...args], product.env);
  const rollback = () => npmRun('rollback', ['mfe-tags'], product.env);
  /** The mfe-tags files the page fetched since `from` (an index into the request log). */
  const tagsRequestsSince = (from) =>
    requests
      .slice(from)
      .filter((url) => url.startsWith(`${tagsOrigin}/`))
      .map((url) => new URL(url).pathname);

  before(async () => {
    for (const app of frontEndApps) {
      assert.ok(fs.existsSync(path.join(repoRoot, app.dir, 'dist')), `${app.dir} is built (npm run build)`);
    }
    fs.mkdirSync(workDir, { recursive: true });
    // The previous release, and the same code built against the next major of the api package.
    const tree = releaseTree(PREVIOUS_REMOTE, ['mfe-tags']);
    cleanUp.push(tree.remove);
    tree.stampVersions();
    builds.previous = await tree.build('mfe-tags', path.join(workDir, 'previous'));
    tree.stampVersions({ 'shell/packages/api': `${API_MAJOR + 1}.0.0`, 'mfe-tags': NEXT_MAJOR });
    builds.breaking = await tree.build('mfe-tags', path.join(workDir, 'breaking'));
    // The next release of the current code, with a change anyone can see.
    const variant = await buildRemoteVariant('mfe-tags', {
      file: 'src/features/tags/components/tags-page.tsx',
      // The heading is the registry's words; the variant's page adds to them.
      replace: ['title={TEXT.heading}', 'title={`${TEXT.heading} (v2)`}'],
      version: NEXT_MINOR,
    });
    cleanUp.push(variant.remove);
    builds.next = variant.distDir;

    product = await startProduct(dataDir);
    tagsOrigin = product.originOf(tags);
    browser = await launchBrowser();
    page = browser.page;
    page.on('request', (request) => requests.push(request.url()));
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    const account = await apiClient(product.apiBaseUrl).signUp('deploytest');
    await storeSession(page, product.shellUrl, account);
  });

  after(async () => {
    await browser?.close();
    await product?.stop();
    for (const remove of cleanUp) remove();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('runs the previous release of mfe-tags in the current shell once deployed, with no restart', async () => {
    await page.goto(`${product.shellUrl}/app/edit-tags`);
    await heading('Your Tags').waitFor();
    const configBefore = liveConfig();

    const deployed = await deploy('--from', builds.previous);
    assert.equal(deployed.code, 0, deployed.stderr);
    assert.match(deployed.stdout, new RegExp(`mfe-tags ${TAGS_VERSION}: the gate passes`));
    const versionUrl = `${tagsOrigin}/v/${TAGS_VERSION}/mf-manifest.json`;
    assert.match(deployed.stdout, new RegExp(`live: ${versionUrl} \\(was ${tagsOrigin}/mf-manifest.json\\)`));
    assert.deepEqual(liveConfig(), {
      ...configBefore,
      remotes: { ...configBefore.remotes, mfe_tags: versionUrl },
    });

    const from = requests.length;
    await page.reload();
    await heading('Your Tags').waitFor();
    // publicPath 'auto': the entry and the page's chunk come from the version's folder, next to its manifest.
    const fetched = tagsRequestsSince(from);
    assert.ok(fetched.includes(`/v/${TAGS_VERSION}/remoteEntry.js`), fetched.join(', '));
    assert.ok(fetched.includes(`/v/${TAGS_VERSION}/${exposeChunkOf(builds.previous)}`), 'the old code ran');
    assert.notEqual(exposeChunkOf(builds.previous), exposeChunkOf(path.join(repoRoot, 'mfe-tags/dist')));
    assert.ok(
      fetched.every((file) => file.startsWith(`/v/${TAGS_VERSION}/`)),
      'nothing from the dist any more',
    );
    assert.deepEqual(browser.pageErrors, []);
    assert.deepEqual(cspViolations, []);
    assert.doesNotMatch(product.output, /exited|restarting/, 'npm start kept every child running');
  });

  it('refuses to replace a deployed version by a different build of the same version', async () => {
    const configBefore = fs.readFileSync(configFile, 'utf8');
    // The working tree's mfe-tags still says the previous release's version, but its code has moved on.
    const refused = await deploy();
    assert.equal(refused.code, 1, refused.stdout);
    assert.match(
      refused.stderr,
      new RegExp(`already holds a different build of mfe-tags ${TAGS_VERSION}.*bump the version`, 's'),
    );
    assert.equal(fs.readFileSync(configFile, 'utf8'), configBefore);
  });

  it('deploys the next version: a page opened before keeps the old one, a reload shows the new, nothing else moves', async () => {
    const others = frontEndApps.filter((app) => app !== tags);
    const distsBefore = Object.fromEntries(
      others.map((app) => [app.dir, digestTree(path.join(repoRoot, app.dir, 'dist'))]),
    );
    const configBefore = liveConfig();
    // This page read the runtime config before the deploy: mfe-tags is the previous version for it.
    await page.goto(`${product.shellUrl}/app/wallet`);
    await heading('Manage Time Wallet').waitFor();

    const deployed = await deploy('--from', builds.next);
    assert.equal(deployed.code, 0, deployed.stderr);
    assert.match(deployed.stdout, new RegExp(`copied to .*mfe-tags/${NEXT_MINOR.replaceAll('.', '\\.')}`));
    assert.match(
      deployed.stdout,
      new RegExp(`npm run rollback -- mfe-tags makes ${TAGS_VERSION} live again`),
    );

    let from = requests.length;
    await page.getByRole('navigation', { name: 'Tabs' }).getByRole('link', { name: 'Edit Tags' }).click();
    await heading('Your Tags').waitFor();
    assert.ok(
      tagsRequestsSince(from).includes(`/v/${TAGS_VERSION}/${exposeChunkOf(builds.previous)}`),
      'the old version’s files are still served to the page that knew only them',
    );

    from = requests.length;
    await page.reload();
    await heading('Your Tags (v2)').waitFor();
    assert.ok(tagsRequestsSince(from).every((file) => file.startsWith(`/v/${NEXT_MINOR}/`)));
    const otherOrigins = others.map((app) => product.originOf(app));
    const otherRequests = requests.slice(from).filter((url) => otherOrigins.some((o) => url.startsWith(o)));
    assert.ok(
      otherRequests.every((url) => !new URL(url).pathname.startsWith('/v/')),
      'every other app is still served from its build',
    );

    const after = liveConfig();
    assert.deepEqual(after, {
      ...configBefore,
      remotes: { ...configBefore.remotes, mfe_tags: `${tagsOrigin}/v/${NEXT_MINOR}/mf-manifest.json` },
    });
    for (const app of others) {
      assert.deepEqual(
        digestTree(path.join(repoRoot, app.dir, 'dist')),
        distsBefore[app.dir],
        `${app.dir} untouched`,
      );
    }
    // Caching as for a build folder: chunks for good, the manifest and entry revalidated.
    const oldChunk = await fetch(`${tagsOrigin}/v/${TAGS_VERSION}/${exposeChunkOf(builds.previous)}`);
    await oldChunk.arrayBuffer();
    assert.equal(oldChunk.status, 200);
    assert.equal(oldChunk.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    for (const file of ['mf-manifest.json', 'remoteEntry.js']) {
      const response = await fetch(`${tagsOrigin}/v/${NEXT_MINOR}/${file}`);
      await response.arrayBuffer();
      assert.equal(response.headers.get('cache-control'), 'no-cache', file);
    }
    assert.deepEqual(browser.pageErrors, []);
    assert.deepEqual(cspViolations, []);
  });

  it('rolls back to the previous version, then says there is nothing left to roll back to', async () => {
    const rolledBack = await rollback();
    assert.equal(rolledBack.code, 0, rolledBack.stderr);
    assert.match(rolledBack.stdout, new RegExp(`Rolled mfe-tags back from ${NEXT_MINOR} to ${TAGS_VERSION}`));
    const from = requests.length;
    await page.reload();
    await heading('Your Tags').waitFor();
    assert.ok(tagsRequestsSince(from).every((file) => file.startsWith(`/v/${TAGS_VERSION}/`)));

    const configBefore = fs.readFileSync(configFile, 'utf8');
    const again = await rollback();
    assert.equal(again.code, 1);
    assert.match(again.stderr, new RegExp(`Nothing to roll back to: ${TAGS_VERSION} is the only version`));
    assert.equal(fs.readFileSync(configFile, 'utf8'), configBefore);
  });

  it('refuses mfe-tags built against a breaking major of @time-wallet/api, leaving the live config alone', async () => {
    const configBefore = fs.readFileSync(configFile, 'utf8');
    const refused = await deploy('--from', builds.breaking);
    assert.equal(refused.code, 1, refused.stdout);
    assert.match(
      refused.stderr,
      new RegExp(
        `mfe-tags ${NEXT_MAJOR} is refused by the compatibility gate; the live config is unchanged\\.\\n` +
          `  - @time-wallet/api: it requires \\^${API_MAJOR + 1}\\.0\\.0, the live shell provides ${API_MAJOR}\\.`,
      ),
    );
    assert.equal(fs.readFileSync(configFile, 'utf8'), configBefore);
    assert.equal(fs.existsSync(path.join(dataDir, 'deploy', 'mfe-tags', NEXT_MAJOR)), false);
  });

  it('keeps the deployed version live when npm start is started again', async () => {
    await product.stop();
    product = await startProduct(dataDir);
    assert.match(product.output, new RegExp(`mfe-tags: serving its deployed ${TAGS_VERSION}`));
    assert.equal(liveConfig().remotes.mfe_tags, `${tagsOrigin}/v/${TAGS_VERSION}/mf-manifest.json`);
    await page.reload();
    await heading('Your Tags').waitFor();
  });
});

describe('version skew: the previous shell with the current mfe-tags', () => {
  const previousShell = path.join(workDir, 'previous-shell');
  const cleanUp = [];
  before(async () => {
    const tree = releaseTree(PREVIOUS_SHELL, []);
    cleanUp.push(tree.remove);
    tree.stampVersions();
    await tree.build('shell', previousShell);
  });
  const suite = browserSuite({ account: 'skewtest', stack: { distDirs: { shell: previousShell } } });
  after(() => {
    for (const remove of cleanUp) remove();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('passes the gate and runs the tags page', async () => {
    assert.notDeepEqual(
      digestTree(previousShell),
      digestTree(path.join(repoRoot, 'shell/dist')),
      'another shell than the current build',
    );
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'time-wallet-skew-'));
    try {
      const gate = await npmRun(
        'deploy',
        [
          'mfe-tags',
          '--from',
          path.join(repoRoot, 'mfe-tags/dist'),
          '--shell',
          path.join(previousShell, 'mf-manifest.json'),
        ],
        { ...process.env, DATA_DIR: dataDir },
      );
      assert.equal(gate.code, 0, gate.stderr);
      assert.match(gate.stdout, /the gate passes against .*previous-shell\/mf-manifest\.json/);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    await suite.page.goto(`${suite.stack.shellUrl}/app/edit-tags`);
    await suite.page.getByRole('heading', { level: 1, name: 'Your Tags', exact: true }).waitFor();
    // The colour picker is shared-ui's Fieldset, as the previous shell provides it.
    await suite.page.getByRole('button', { name: 'Add Tag' }).click();
    await suite.page
      .getByRole('dialog', { name: 'Add New Category' })
      .getByRole('group', { name: 'Colour' })
      .waitFor();
    assert.deepEqual(suite.browser.pageErrors, []);
  });
});
