// The main-thread tasks of one signed-in visit that Lighthouse's mobile figures count as long, and what ran in each.
// Lighthouse's mobile preset loads a page at full CPU speed and multiplies each task by 4 in its simulation, so every
// task of 12.5 ms or more is a long task there, and one after the first paint adds 4 x its length - 50 ms to TBT. This
// loads the page once at full speed under Chromium's tracing with V8's sampling profiler on, and prints each such task:
// its start from the navigation, its length, its share of that estimate, what kinds of work it held (script, style and
// layout, HTML parsing, garbage collection) and the functions its samples ran under, each sample by the innermost
// function of the project's own sources on its stack (else by its innermost function), named through the source maps.
// The estimate is Lighthouse's arithmetic on one unthrottled run, not its simulation: read it to compare tasks.
// --innermost names each sample by its innermost function, own or not (what a library spent under our call).
// --under <own function> counts only the samples whose own frame names it, each by its innermost function.
// Usage: E2E_PORT_OFFSET=800 node e2e/bench/task-profile.mjs today [--width 375] [--least 12.5] [--top 6] [--innermost | --under restore-session]
import { parseArgs } from 'node:util';
import { storeSession } from '../support/api-client.mjs';
import { chromiumPath, launchBrowser, waitInPage } from '../support/browser.mjs';
import { startStack } from '../support/stack.mjs';
import { pageNamed } from './lighthouse.mjs';
import { seedUserWithData } from './lib-seed.mjs';
import { sourceMapper } from './lib-source-map.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    width: { type: 'string', default: '375' },
    least: { type: 'string', default: '12.5' },
    top: { type: 'string', default: '6' },
    innermost: { type: 'boolean', default: false },
    under: { type: 'string' },
  },
});
const pageName = positionals[0] ?? 'wallet';
const spec = pageNamed(pageName);
chromiumPath(); // a missing browser stops the script before a stack starts

/** Lighthouse's mobile CPU slowdown and the length from which a task blocks. */
const SLOWDOWN = 4;
const BLOCKING_MS = 50;
const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8.execute',
  'blink.user_timing',
  'loading',
  'disabled-by-default-v8.cpu_profiler',
];
const KINDS = {
  EvaluateScript: 'script',
  FunctionCall: 'script',
  TimerFire: 'script',
  FireAnimationFrame: 'script',
  RunMicrotasks: 'script',
  'v8.compile': 'compile',
  'v8.compileModule': 'compile',
  UpdateLayoutTree: 'style+layout',
  Layout: 'style+layout',
  ParseHTML: 'parse HTML',
  ParseAuthorStyleSheet: 'parse CSS',
  MinorGC: 'GC',
  MajorGC: 'GC',
  Paint: 'paint',
  PrePaint: 'paint',
};

/** Every trace event of one visit to `url`, loaded at full CPU speed. */
async function traceVisit(page, context, url) {
  const cdp = await context.newCDPSession(page);
  const events = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...value));
  const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.start', {
    traceConfig: { includedCategories: CATEGORIES },
    transferMode: 'ReportEvents',
  });
  await page.goto(url);
  await waitInPage(page, (text) => document.body.innerText.includes(text), spec.expectText ?? '', {
    timeout: 60_000,
  });
  await page.waitForTimeout(3000);
  await cdp.send('Tracing.end');
  await complete;
  return events;
}

/** The renderer main thread that ran the most: the page's. */
function mainThreadOf(events) {
  const busy = new Map();
  for (const event of events)
    if (event.name === 'RunTask' && event.ph === 'X') {
      const key = `${event.pid}:${event.tid}`;
      busy.set(key, (busy.get(key) ?? 0) + event.dur);
    }
  const names = new Set(
    events
      .filter((event) => event.name === 'thread_name' && event.args.name === 'CrRendererMain')
      .map((event) => `${event.pid}:${event.tid}`),
  );
  const [key] = [...busy].filter(([thread]) => names.has(thread)).sort((a, b) => b[1] - a[1])[0];
  const [pid, tid] = key.split(':').map(Number);
  return { pid, tid };
}

/** The thread's samples, in time order: { ts (trace clock), node }, and its profile's nodes by id with parents. */
function samplesOf(events, { pid, tid }) {
  const mine = events.filter((event) => event.pid === pid && event.tid === tid);
  const profile = mine.find((event) => event.name === 'Profile');
  if (!profile) throw new Error('the trace holds no CPU profile for the page');
  const nodes = new Map();
  const samples = [];
  let clock = profile.args.data.startTime;
  for (const chunk of events.filter((event) => event.name === 'ProfileChunk' && event.id === profile.id)) {
    const { cpuProfile = {}, timeDeltas = [] } = chunk.args.data;
    for (const node of cpuProfile.nodes ?? []) nodes.set(node.id, node);
    (cpuProfile.samples ?? []).forEach((id, index) => {
      clock += timeDeltas[index] ?? 0;
      samples.push({ ts: clock, id });
    });
  }
  return { nodes, samples };
}

/**
 * What the task's style and layout passes worked on: each style recalculation's element count and each layout's
 * objects (dirty of total), in order, so that a pass over the whole document shows as one.
 */
function renderingOf(onThread, task) {
  const passes = [];
  for (const event of onThread) {
    if (event.ph !== 'X' || event.ts < task.ts || event.ts >= task.ts + task.dur) continue;
    const ms = (event.dur / 1000).toFixed(1);
    if (event.name === 'UpdateLayoutTree')
      passes.push(`style ${event.args?.elementCount ?? '?'} elements ${ms} ms`);
    else if (event.name === 'Layout') {
      const { dirtyObjects = '?', totalObjects = '?' } = event.args?.beginData ?? {};
      passes.push(`layout ${dirtyObjects}/${totalObjects} objects ${ms} ms`);
    }
  }
  return passes.join('; ');
}

const stack = await startStack();
try {
  const browser = await launchBrowser({ viewport: { width: Number(values.width), height: 800 } });
  try {
    const { page, context } = browser;
    if (spec.signedIn) await storeSession(page, stack.shellUrl, await seedUserWithData(stack.apiBaseUrl));
    const events = await traceVisit(page, context, `${stack.shellUrl}${spec.path}`);
    const thread = mainThreadOf(events);
    const onThread = events.filter((event) => event.pid === thread.pid && event.tid === thread.tid);
    const navigation = onThread.find((event) => event.name === 'navigationStart') ?? onThread[0];
    const fcp = onThread.find((event) => event.name === 'firstContentfulPaint');
    const { nodes, samples } = samplesOf(events, thread);
    const { mapOf, ownKeys } = sourceMapper(stack);
    const named = new Map();
    const nameOf = (id) => {
      if (!named.has(id)) named.set(id, mapOf(nodes.get(id).callFrame));
      return named.get(id);
    };
    const ownOf = new Map();
    const ownFrame = (id) => {
      if (ownOf.has(id)) return ownOf.get(id);
      const node = nodes.get(id);
      const found = ownKeys.has(nameOf(id))
        ? nameOf(id)
        : node.parent === undefined
          ? null
          : ownFrame(node.parent);
      ownOf.set(id, found);
      return found;
    };
    // Named once in sample order, so that every own function is known before the stacks are walked.
    for (const { id } of samples) nameOf(id);
    for (const node of nodes.values()) nameOf(node.id);

    const least = Number(values.least) * 1000;
    const tasks = onThread.filter(
      (event) => event.name === 'RunTask' && event.ph === 'X' && event.dur >= least,
    );
    const at = (ts) => ((ts - navigation.ts) / 1000).toFixed(0);
    const share = (task) =>
      fcp && task.ts + task.dur < fcp.ts ? 0 : Math.max(0, (task.dur / 1000) * SLOWDOWN - BLOCKING_MS);
    const total = tasks.reduce((sum, task) => sum + share(task), 0);
    console.log(`# ${pageName} (${spec.path}) at ${values.width} px, full CPU speed`);
    console.log(
      `first contentful paint at ${fcp ? `${at(fcp.ts)} ms` : '(none)'}; ${tasks.length} tasks of ` +
        `${values.least} ms or more; TBT estimate ${total.toFixed(0)} ms (sum of ${SLOWDOWN} x ms - ${BLOCKING_MS} after it)`,
    );
    for (const task of tasks) {
      const end = task.ts + task.dur;
      const kinds = new Map();
      for (const event of onThread)
        if (
          event.ph === 'X' &&
          event.ts >= task.ts &&
          event.ts < end &&
          KINDS[event.name] &&
          event !== task
        ) {
          const kind = KINDS[event.name];
          kinds.set(kind, (kinds.get(kind) ?? 0) + event.dur / 1000);
        }
      const where = new Map();
      let previous = task.ts;
      for (const sample of samples) {
        if (sample.ts < task.ts) continue;
        if (sample.ts > end) break;
        const own = values.innermost ? null : ownFrame(sample.id);
        let key = own ?? `${values.innermost ? '' : '(no own frame) '}${nameOf(sample.id)}`;
        if (values.under) {
          // Only the samples run under one own function, each by its innermost function.
          if (!ownFrame(sample.id)?.includes(values.under)) {
            previous = sample.ts;
            continue;
          }
          key = nameOf(sample.id);
        }
        where.set(key, (where.get(key) ?? 0) + (sample.ts - previous) / 1000);
        previous = sample.ts;
      }
      // Nested events of one kind overlap (a function call inside a microtask): the outermost stands for them.
      const kindText = [...kinds]
        .sort((a, b) => b[1] - a[1])
        .map(([kind, ms]) => `${kind} ${Math.min(ms, task.dur / 1000).toFixed(1)}`)
        .join(', ');
      console.log(
        `\nat ${at(task.ts)} ms: ${(task.dur / 1000).toFixed(1)} ms, TBT share ${share(task).toFixed(0)} ms (${kindText})`,
      );
      const rendering = renderingOf(onThread, task);
      if (rendering) console.log(`          ${rendering}`);
      for (const [key, ms] of [...where].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top)))
        console.log(`${ms.toFixed(1).padStart(8)} ms  ${key}`);
    }
  } finally {
    await browser.close();
  }
} finally {
  await stack.stop();
}
