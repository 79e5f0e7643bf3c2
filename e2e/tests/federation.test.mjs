import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { browserSuite } from '../support/suite.mjs';
import { storeSession } from '../support/api-client.mjs';
import { sparePort } from '../support/stack.mjs';
import { buildRemoteVariant, digestTree } from '../support/remote-variant.mjs';

const require = createRequire(import.meta.url);
const { repoRoot, remotes, shell } = require('@time-wallet/devkit/apps');

describe('module federation', () => {
  const suite = browserSuite({ account: 'fedtest', signIn: false });

  const heading = (name) => suite.page.getByRole('heading', { level: 1, name });

  it('loads React, react-dom and the store once on a page that shows two remotes', async () => {
    const scripts = [];
    const categoryCalls = [];
    // Listed as each response comes, its body read after (the reads finish before the checks below).
    suite.page.on('response', (response) => {
      const url = response.url();
      if (url.endsWith('/api/categories')) categoryCalls.push(url);
      if (response.request().resourceType() === 'script')
        scripts.push({ url, body: response.text().catch(() => '') });
    });
    // A stand-in for React DevTools: every react-dom copy that starts registers itself with this hook once.
    await suite.page.addInitScript(() => {
      window.__reactRenderersInjected = 0;
      window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
        isDisabled: false,
        supportsFiber: true,
        renderers: new Map(),
        inject(renderer) {
          window.__reactRenderersInjected += 1;
          this.renderers.set(window.__reactRenderersInjected, renderer);
          return window.__reactRenderersInjected;
        },
        onScheduleFiberRoot() {},
        onCommitFiberRoot() {},
        onCommitFiberUnmount() {},
        onPostCommitFiberRoot() {},
        checkDCE() {},
      };
    });
    await storeSession(suite.page, suite.stack.shellUrl, suite.account);
    // The tags page shows its heading before its categories are read: the count below waits for that read.
    const categoriesRead = suite.page.waitForResponse((response) =>
      response.url().endsWith('/api/categories'),
    );
    await suite.page.goto(`${suite.stack.shellUrl}/app/wallet`);
    await heading('Manage Time Wallet').waitFor();
    await suite.page
      .getByRole('navigation', { name: 'Tabs' })
      .getByRole('link', { name: 'Edit Tags' })
      .click();
    await heading('Your Tags').waitFor();

    const share = await suite.page.evaluate(() => {
      const scopes = globalThis.__FEDERATION__?.__SHARE__ ?? {};
      const seen = {};
      for (const instance of Object.values(scopes)) {
        for (const modules of Object.values(instance)) {
          for (const [name, versions] of Object.entries(modules)) {
            for (const [version, info] of Object.entries(versions)) {
              if (info.loaded || info.loading) (seen[name] ??= []).push({ version, from: info.from });
            }
          }
        }
      }
      return seen;
    });
    // The store, RTK Query and the router reach remotes through @time-wallet/api and its /router entry.
    for (const name of ['react', 'react-dom', '@time-wallet/api', '@time-wallet/api/router']) {
      const providers = [...new Set((share[name] ?? []).map((entry) => `${entry.from}@${entry.version}`))];
      assert.deepEqual(providers.length, 1, `${name} is provided once (got ${JSON.stringify(share[name])})`);
      assert.match(providers[0], /^shell@/, `${name} comes from the shell`);
    }

    for (const script of scripts) script.body = await script.body;
    const remoteOrigins = remotes.map((remote) => suite.stack.originOf(remote.federationName));
    const remoteScripts = scripts.filter((script) =>
      remoteOrigins.some((origin) => script.url.startsWith(origin)),
    );
    assert.ok(
      remoteScripts.some((script) => script.url.includes(suite.stack.originOf('mfe_wallet'))),
      'wallet remote loaded',
    );
    assert.ok(
      remoteScripts.some((script) => script.url.includes(suite.stack.originOf('mfe_tags'))),
      'tags remote loaded',
    );
    for (const script of remoteScripts) {
      assert.doesNotMatch(
        script.body,
        /Minified React error|__REACT_DEVTOOLS_GLOBAL_HOOK__/,
        `${script.url} bundles no React`,
      );
    }
    const renderers = await suite.page.evaluate(() => window.__reactRenderersInjected);
    assert.equal(renderers, 1, 'exactly one react-dom renderer started on the page');
    await categoriesRead;
    assert.equal(categoryCalls.length, 1, 'the shell and both remotes read one shared API cache');
    assert.deepEqual(suite.browser.pageErrors, []);
  });

  it("lists on /app/about the shell's version and each remote's from its live manifest", async () => {
    await storeSession(suite.page, suite.stack.shellUrl, suite.account);
    await suite.page.goto(`${suite.stack.shellUrl}/app/about`);
    await heading('About Time Wallet').waitFor();
    await suite.page.getByRole('status').filter({ hasText: 'Every part answered' }).waitFor();

    const rows = await suite.page
      .getByRole('table', { name: 'Versions' })
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [tr.cells[0].textContent, tr.cells[2].textContent]));
    const versionOf = (app) =>
      JSON.parse(fs.readFileSync(path.join(repoRoot, app.dir, 'package.json'), 'utf8')).version;
    assert.deepEqual(
      rows,
      [shell, ...remotes].map((app) => [app.dir, versionOf(app)]),
      'every app of the registry, each with the version its package (and so its build) has',
    );
    for (const [dir, version] of rows) assert.match(version, /^\d+\.\d+\.\d+$/, `${dir} shows a semver`);
  });

  it('swaps one remote by config alone, leaving every other build byte-identical', async () => {
    const before = Object.fromEntries(
      [shell, ...remotes].map((app) => [app.dir, digestTree(path.join(repoRoot, app.dir, 'dist'))]),
    );
    const variant = await buildRemoteVariant('mfe-tags', {
      file: 'src/features/tags/components/tags-page.tsx',
      // The heading is the registry's words; the variant's page adds to them.
      replace: ['title={TEXT.heading}', 'title={`${TEXT.heading} (v2)`}'],
    });
    try {
      await suite.stack.deployRemote('mfe_tags', variant.distDir, sparePort(0));
      await storeSession(suite.page, suite.stack.shellUrl, suite.account);
      await suite.page.goto(`${suite.stack.shellUrl}/app/edit-tags`);
      await heading('Your Tags (v2)').waitFor();
      await suite.page
        .getByRole('navigation', { name: 'Tabs' })
        .getByRole('link', { name: 'Wallet' })
        .click();
      await heading('Manage Time Wallet').waitFor();
      for (const app of [shell, ...remotes]) {
        assert.deepEqual(
          digestTree(path.join(repoRoot, app.dir, 'dist')),
          before[app.dir],
          `${app.dir} untouched`,
        );
      }
    } finally {
      variant.remove();
    }
  });

  it('contains a dead remote to its route and recovers with Retry, without a reload', async () => {
    const walletOrigin = new URL(suite.stack.config.remotes.mfe_wallet).origin;
    const blocked = `${walletOrigin}/**`;
    await storeSession(suite.page, suite.stack.shellUrl, suite.account);
    await suite.page.route(blocked, (route) => route.abort('connectionrefused'));
    const errorsBefore = suite.browser.pageErrors.length;
    await suite.page.goto(`${suite.stack.shellUrl}/app/today`);
    await suite.page
      .getByRole('heading', { name: 'This part of Time Wallet is not available right now' })
      .waitFor();
    await suite.page.evaluate(() => (window.__notReloaded = true));

    await suite.page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Analytics' })
      .click();
    await heading('Time Wallet Analytics').waitFor();
    await suite.page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Wallet', exact: true })
      .click();
    await suite.page.getByRole('button', { name: 'Retry' }).waitFor();

    await suite.page.unroute(blocked);
    await suite.page.getByRole('button', { name: 'Retry' }).click();
    await heading('Manage Time Wallet').waitFor();
    assert.equal(
      await suite.page.evaluate(() => window.__notReloaded),
      true,
      'recovered without a page reload',
    );
    assert.equal(suite.browser.pageErrors.length, errorsBefore, 'no uncaught error');
  });
});
