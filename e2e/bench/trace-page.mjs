// One full Lighthouse mobile run of a page, printed as the trace-level facts behind its LCP and TBT: the LCP phases,
// the scripts' start-up cost, the long tasks, the animations the main thread runs and the network requests in time
// order (simulated slow 4G, 4x CPU).
// Usage: E2E_PORT_OFFSET=800 node e2e/bench/trace-page.mjs wallet
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import puppeteer from 'puppeteer-core';
import { storeSession } from '../support/api-client.mjs';
import { CHROMIUM_ARGS, chromiumPath } from '../support/browser.mjs';
import { startStack } from '../support/stack.mjs';
import { pageNamed } from './lighthouse.mjs';
import { seedUserWithData } from './lib-seed.mjs';

const pageName = process.argv[2] ?? 'wallet';
const spec = pageNamed(pageName);

// Found before the stack starts, so a missing browser stops the script without leaving an API running.
const chromePath = process.env.CHROME_PATH || chromiumPath();
const stack = await startStack();
const chrome = await chromeLauncher.launch({
  chromePath,
  chromeFlags: ['--headless=new', ...CHROMIUM_ARGS],
});
try {
  const browser = await puppeteer.connect({
    browserURL: `http://127.0.0.1:${chrome.port}`,
    defaultViewport: null,
  });
  const page = (await browser.pages())[0] ?? (await browser.newPage());
  if (spec.signedIn) await storeSession(page, stack.shellUrl, await seedUserWithData(stack.apiBaseUrl));
  const { lhr } = await lighthouse(
    `${stack.shellUrl}${spec.path}`,
    { onlyCategories: ['performance'], disableStorageReset: true, logLevel: 'error', output: 'json' },
    undefined,
    page,
  );
  const audit = (id) => lhr.audits[id];
  const ms = (value) => `${Math.round(value)} ms`;
  const short = (url) => url.replace(/^https?:\/\/[^/]+/, (origin) => `:${new URL(origin).port}`);
  console.log(`# ${pageName} (${spec.path}): score ${Math.round(lhr.categories.performance.score * 100)}`);
  for (const id of [
    'first-contentful-paint',
    'largest-contentful-paint',
    'total-blocking-time',
    'cumulative-layout-shift',
  ])
    console.log(`${id}: ${audit(id).displayValue}`);

  console.log('\n## LCP element and phases');
  for (const item of audit('largest-contentful-paint-element')?.details?.items ?? []) {
    for (const row of item.items ?? []) {
      if (row.node) console.log(`element: ${row.node.nodeLabel} <${row.node.selector}>`);
      if (row.phase) console.log(`${row.phase}: ${ms(row.timing)}`);
    }
  }

  console.log('\n## Script start-up (bootup-time: total, evaluation, parse+compile)');
  for (const item of audit('bootup-time')?.details?.items ?? [])
    console.log(
      `${short(item.url)}: ${ms(item.total)}, ${ms(item.scripting)}, ${ms(item.scriptParseCompile)}`,
    );

  console.log('\n## Main thread (mainthread-work-breakdown)');
  for (const item of audit('mainthread-work-breakdown')?.details?.items ?? [])
    console.log(`${item.groupLabel}: ${ms(item.duration)}`);

  console.log('\n## Long tasks (start, duration, attributed to)');
  for (const item of audit('long-tasks')?.details?.items ?? [])
    console.log(`${ms(item.startTime)} +${ms(item.duration)} ${short(item.url)}`);

  // Animations the main thread runs in every frame (a moving background, a colour) instead of the compositor.
  console.log('\n## Non-composited animations (element: reasons)');
  for (const item of audit('non-composited-animations')?.details?.items ?? []) {
    const reasons = (item.subItems?.items ?? []).map((sub) =>
      `${sub.animation ?? ''} ${sub.failureReason}`.trim(),
    );
    console.log(`${item.node?.selector ?? item.node?.nodeLabel}: ${reasons.join('; ')}`);
  }

  console.log('\n## Network requests (simulated: start, end, KB transferred)');
  for (const item of audit('network-requests')?.details?.items ?? [])
    console.log(
      `${ms(item.networkRequestTime)} -> ${ms(item.networkEndTime)} ${(item.transferSize / 1024).toFixed(1)} KB ${item.resourceType ?? ''} ${short(item.url)}`,
    );
  await browser.disconnect();
} finally {
  chrome.kill();
  await stack.stop();
}
