// Where a page's first load spends main-thread CPU, by source: Chromium's sampling profiler over one signed-in visit
// (4x CPU slowdown, as Lighthouse's mobile preset), each sample's function mapped back through the build's source maps
// to its original file and name, then summed as self time. Also prints the page's long tasks (PerformanceObserver), and
// with --stretches, each busy stretch of 50 ms or more (a long task, give or take a sample) with the project's own
// functions it ran under: for each sample the innermost frame from the project's sources (not node_modules), so that a
// React render is told by the component that drew, not by react-dom's internals.
// Lighthouse's mobile preset does not slow the CPU while it loads the page: it multiplies each task it saw by 4 after.
// So `--throttle 1 --stretch-ms 12.5` lists the stretches that its simulated figures count as long tasks.
// Usage: E2E_PORT_OFFSET=800 node e2e/bench/cpu-profile.mjs calendar [--top 30] [--width 375] [--throttle 4]
//        [--stretches] [--stretch-ms 50]
import { parseArgs } from 'node:util';
import { startStack } from '../support/stack.mjs';
import { chromiumPath, launchBrowser, waitInPage } from '../support/browser.mjs';
import { storeSession } from '../support/api-client.mjs';
import { pageNamed } from './lighthouse.mjs';
import { seedUserWithData } from './lib-seed.mjs';
import { sourceMapper } from './lib-source-map.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    top: { type: 'string', default: '30' },
    width: { type: 'string', default: '375' },
    throttle: { type: 'string', default: '4' },
    stretches: { type: 'boolean', default: false },
    'stretch-ms': { type: 'string', default: '50' },
  },
});
const pageName = positionals[0] ?? 'wallet';
const spec = pageNamed(pageName);
chromiumPath(); // a missing browser stops the script before a stack starts

/** A sample's length in ms (the delta to the next sample). */
const sampleMs = (profile, index) => (profile.timeDeltas[index + 1] ?? 0) / 1000;

/**
 * The runs of samples with no idle one between them, in time order (a task, give or take a sample): the first and
 * last sample's index, the start from the profile's start and the length, in ms.
 */
function busyStretches(profile, byId) {
  const stretches = [];
  let current = null;
  let clock = 0;
  profile.samples.forEach((id, index) => {
    const ms = sampleMs(profile, index);
    if (byId.get(id).callFrame.functionName === '(idle)') {
      current = null;
    } else {
      if (current === null) stretches.push((current = { from: index, to: index, start: clock, ms: 0 }));
      current.to = index;
      current.ms += ms;
    }
    clock += ms;
  });
  return stretches;
}

/** Sums the samples of a stretch (from..to) by `keyOf(sample's node id)`. */
function timeBy(profile, { from, to }, keyOf) {
  const sums = new Map();
  for (let index = from; index <= to; index++) {
    const key = keyOf(profile.samples[index]);
    sums.set(key, (sums.get(key) ?? 0) + sampleMs(profile, index));
  }
  return sums;
}

/**
 * Every busy stretch of --stretch-ms (50) or more, in time order: its start from the profile's start, its length, and where its
 * time went by the innermost own function on each sample's stack (samples with none on their stack: by self time).
 */
function printStretches(profile, byId, { mapOf, ownKeys }, stretches) {
  const parentOf = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const ownFrameOf = new Map();
  const ownFrame = (id) => {
    if (ownFrameOf.has(id)) return ownFrameOf.get(id);
    const key = mapOf(byId.get(id).callFrame);
    const parent = parentOf.get(id);
    const found = ownKeys.has(key) ? key : parent === undefined ? null : ownFrame(parent);
    ownFrameOf.set(id, found);
    return found;
  };
  const least = Number(values['stretch-ms']);
  console.log(`\n## Busy stretches of ${least} ms or more, by the innermost own function on the stack`);
  const where = (id) => ownFrame(id) ?? `(no own frame) ${mapOf(byId.get(id).callFrame)}`;
  for (const stretch of stretches.filter((item) => item.ms >= least)) {
    console.log(`at ${stretch.start.toFixed(0)} ms: ${stretch.ms.toFixed(0)} ms`);
    for (const [key, ms] of [...timeBy(profile, stretch, where)].sort((a, b) => b[1] - a[1]).slice(0, 6))
      console.log(`${ms.toFixed(0).padStart(8)} ms  ${key}`);
  }
}

const stack = await startStack();
try {
  const browser = await launchBrowser({ viewport: { width: Number(values.width), height: 800 } });
  try {
    const { page, context } = browser;
    if (spec.signedIn) await storeSession(page, stack.shellUrl, await seedUserWithData(stack.apiBaseUrl));
    await page.addInitScript(() => {
      window.__longTasks = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries())
          window.__longTasks.push({
            start: Math.round(entry.startTime),
            duration: Math.round(entry.duration),
          });
      }).observe({ type: 'longtask', buffered: true });
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: Number(values.throttle) });
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
    await page.goto(`${stack.shellUrl}${spec.path}`);
    await waitInPage(page, (text) => document.body.innerText.includes(text), spec.expectText ?? '', {
      timeout: 60_000,
    });
    await page.waitForTimeout(3000);
    const { profile } = await cdp.send('Profiler.stop');
    const longTasks = await page.evaluate(() => window.__longTasks);

    const mapper = sourceMapper(stack);
    const { mapOf } = mapper;
    const byId = new Map(profile.nodes.map((node) => [node.id, node]));
    const selfTime = new Map();
    const byFile = new Map();
    profile.samples.forEach((id, index) => {
      const node = byId.get(id);
      const key = mapOf(node.callFrame);
      const ms = sampleMs(profile, index);
      selfTime.set(key, (selfTime.get(key) ?? 0) + ms);
      const file = key.replace(/:[^:]*$/, '');
      byFile.set(file, (byFile.get(file) ?? 0) + ms);
    });
    // The longest busy stretch: the page's longest task, give or take a sample.
    const stretches = busyStretches(profile, byId);
    const none = { from: 0, to: -1, ms: 0 };
    const longest = stretches.reduce((most, stretch) => (stretch.ms > most.ms ? stretch : most), none);
    const inLongest = timeBy(profile, longest, (id) => mapOf(byId.get(id).callFrame));
    const idle = ['(idle)', '(program)'];
    const busy = [...selfTime].filter(([key]) => !idle.includes(key)).reduce((sum, [, ms]) => sum + ms, 0);
    const print = (title, map) => {
      console.log(`\n## ${title}`);
      for (const [key, ms] of [...map].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top)))
        console.log(`${ms.toFixed(0).padStart(6)} ms  ${key}`);
    };
    console.log(`# ${pageName} (${spec.path}) at ${values.width} px, CPU ${values.throttle}x slower`);
    console.log(`busy main-thread samples: ${busy.toFixed(0)} ms`);
    console.log(
      `long tasks: ${longTasks.length}, ${longTasks.reduce((sum, task) => sum + task.duration, 0)} ms, ` +
        `blocking (over 50 ms) ${longTasks.reduce((sum, task) => sum + Math.max(0, task.duration - 50), 0)} ms`,
    );
    for (const task of longTasks) console.log(`  at ${task.start} ms: ${task.duration} ms`);
    print('Self time by source file', byFile);
    print('Self time by function', selfTime);
    print(`Self time by function in the longest busy stretch (${longest.ms.toFixed(0)} ms)`, inLongest);
    if (values.stretches) printStretches(profile, byId, mapper, stretches);
  } finally {
    await browser.close();
  }
} finally {
  await stack.stop();
}
