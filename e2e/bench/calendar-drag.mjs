// Drag INP on the calendar's week grid (issue 16): a week with 500 timed events and 100 scheduled tasks, seeded
// through the API, opened in Chromium at a desktop size; after the load the CPU is slowed 4x (Lighthouse's mobile
// throttling) and blocks are dragged with the mouse: down, ~150 px down their day column, ~160 px across into the
// next day, up. The page's Event Timing entries give each drag's interaction (pointerdown, pointerup, click...
// grouped by interactionId, the worst entry of each); INP is the worst interaction of the load (fewer than 50, so
// no percentile). Long tasks are recorded apart: while the mouse is held (the moves) and after the drop (the
// changed week read again and drawn). Each figure is the median over several page loads, each in a fresh profile.
import { pageFunctions } from 'lighthouse/core/lib/page-functions.js';
import { startStack } from '../support/stack.mjs';
import { launchBrowser } from '../support/browser.mjs';
import { apiClient, storeSession } from '../support/api-client.mjs';
import { median } from './lighthouse.mjs';
import { SEEDED, instant, localDay } from './lib-seed.mjs';

export const WEEK = { events: 500, tasks: 100 };
export const TARGET_INP_MS = 200;
export const CPU_SLOWDOWN = 4;
const VIEWPORT = { width: 1280, height: 800 };
// Titles the drags find their blocks by: the grid's own class names are not a contract, the seeded text is.
const EVENT_TITLE = 'Bench event ';
const TASK_TITLE = 'Bench task ';
const DONE_TASK_TITLE = 'Bench done task ';

const pad = (value) => String(value).padStart(2, '0');
const hhmm = (minutes) => `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;

/** A small seeded generator (mulberry32): every run seeds the same week. */
function randomNumbers(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const pickFrom = (random, list) => list[Math.floor(random() * list.length)];

/** Runs `work` over `items`, `size` at a time. */
async function inPool(items, size, work) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      await work(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: size }, worker));
}

/** The seven local days the calendar opens on: this week, Sunday first (the machine's zone is the browser's). */
export function shownWeek() {
  const sunday = -new Date().getDay();
  return Array.from({ length: 7 }, (_, index) => localDay(sunday + index));
}

/**
 * A fresh user whose current week holds WEEK.events timed events and WEEK.tasks scheduled tasks, through the API.
 * Every day gets its seventh: events from 07:00 to 21:00 (15 min to 2 h, on the quarter hour, so they overlap as a
 * busy calendar does), tasks from 06:00 to 22:00; a third of the events and half the tasks have one of three
 * categories, and every tenth task is done. Returns {token, user}.
 */
export async function seedBusyWeek(apiBaseUrl) {
  const api = apiClient(apiBaseUrl);
  const account = await api.signUp('drag');
  const as = (method, url, body) => api.call(method, url, { token: account.token, body });
  // Tasks are given in wall-clock time, which the API reads in the user's zone: the browser's.
  const user = await as('PATCH', '/users/me', {
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  });
  const categoryIds = [];
  for (const [name, color] of SEEDED.categories)
    categoryIds.push((await as('POST', '/categories', { name, color }))._id);

  const week = shownWeek();
  const random = randomNumbers(16);
  const events = Array.from({ length: WEEK.events }, (_, index) => {
    const day = week[index % 7];
    const start = 7 * 60 + 15 * Math.floor(random() * 53);
    const minutes = pickFrom(random, [15, 30, 30, 45, 60, 60, 60, 90, 120]);
    return {
      title: `${EVENT_TITLE}${index + 1}`,
      start: instant(day, hhmm(start)),
      end: instant(day, hhmm(start + minutes)),
      allDay: false,
      ...(index % 3 === 0 ? { categoryId: categoryIds[index % categoryIds.length] } : {}),
    };
  });
  const tasks = Array.from({ length: WEEK.tasks }, (_, index) => {
    const start = 6 * 60 + 15 * Math.floor(random() * 61);
    const minutes = pickFrom(random, [15, 30, 45, 60, 90]);
    const done = index % 10 === 9;
    return {
      title: `${done ? DONE_TASK_TITLE : TASK_TITLE}${index + 1}`,
      date: week[index % 7],
      startHHMM: hhmm(start),
      endHHMM: hhmm(start + minutes),
      categoryId: index % 2 === 0 ? categoryIds[(index / 2) % categoryIds.length] : '',
      notes: '',
      done,
    };
  });
  await inPool(events, 4, (body) => as('POST', '/events', body));
  await inPool(tasks, 4, (body) => as('POST', '/tasks', body));
  return { token: account.token, user };
}

/** In the page: Event Timing and long task observers, read per window of performance.now(). */
function installObservers() {
  const interactions = [];
  const longTasks = [];
  const keepInteractions = (entries) => {
    for (const entry of entries) {
      if (entry.interactionId > 0) {
        const { interactionId: id, name, startTime, duration } = entry;
        interactions.push({ id, name, startTime, duration });
      }
    }
  };
  const keepLongTasks = (entries) =>
    longTasks.push(...entries.map(({ startTime, duration }) => ({ startTime, duration })));
  const events = new PerformanceObserver((list) => keepInteractions(list.getEntries()));
  events.observe({ type: 'event', durationThreshold: 16, buffered: true });
  const tasks = new PerformanceObserver((list) => keepLongTasks(list.getEntries()));
  tasks.observe({ type: 'longtask', buffered: true });
  window.__dragBench = {
    /** The worst duration of each interaction that started in [from, to), and the longest long task there. */
    read(from, to) {
      keepInteractions(events.takeRecords());
      keepLongTasks(tasks.takeRecords());
      const worst = new Map();
      for (const entry of interactions) {
        if (entry.startTime < from || entry.startTime >= to) continue;
        const known = worst.get(entry.id);
        if (!known || entry.duration > known.duration) worst.set(entry.id, entry);
      }
      const inWindow = longTasks.filter((task) => task.startTime >= from && task.startTime < to);
      return {
        interactions: [...worst.values()].map(({ name, duration }) => ({ name, duration })),
        longestTaskMs: Math.max(0, ...inWindow.map((task) => task.duration)),
      };
    },
  };
}

/** In the page: the blocks drawn whose text has `title`, and how many blocks are behind "+N" links (any kind). */
function gridCounts([selector, title]) {
  return {
    drawn: [...document.querySelectorAll(selector)].filter((block) => block.textContent.includes(title))
      .length,
    behindLinks: [...document.querySelectorAll('.fc-timegrid-more-link')].reduce(
      (sum, link) => sum + Number(link.textContent.match(/\+(\d+)/)?.[1] ?? 0),
      0,
    ),
  };
}

/**
 * In the page: a block to drag, found by its title, and the mouse's path. The block sits in one of the first six
 * days (a day follows it), and its grab point is on the block itself (blocks overlap), away from its resize edge,
 * with room below it in the visible hours. `pick` (0-1) chooses among the blocks that qualify.
 */
function planDrag({ title, pick }) {
  const columns = [...document.querySelectorAll('td.fc-timegrid-col[data-date]')].map((cell) =>
    cell.getBoundingClientRect(),
  );
  const found = [];
  for (const block of document.querySelectorAll('.fc-timegrid-event')) {
    if (block.classList.contains('fc-event-mirror') || !block.textContent.includes(title)) continue;
    const box = block.getBoundingClientRect();
    const scroller = block.closest('.fc-scroller')?.getBoundingClientRect();
    // The hours one sees: the grid may run past the window's foot, where the pointer would scroll the page instead.
    const visibleBottom = Math.min(scroller?.bottom ?? 0, window.innerHeight);
    const column = columns.findIndex((cell) => box.left >= cell.left - 1 && box.left < cell.right);
    if (!scroller || column < 0 || column >= columns.length - 1 || box.width < 6) continue;
    const xs = [box.left + 4, box.left + box.width / 2];
    const ys = [box.top + 6, box.top + Math.min(box.height / 2, 14)];
    for (const x of xs) {
      const y = ys.find((candidate) => {
        const hit = document.elementFromPoint(x, candidate);
        return (
          candidate > scroller.top + 8 &&
          hit?.closest('.fc-timegrid-event') === block &&
          !hit.closest('.fc-event-resizer')
        );
      });
      if (y === undefined) continue;
      const down = Math.min(150, visibleBottom - 12 - y);
      if (down >= 60) found.push({ x, y, down, across: columns[column + 1].left + 10 - box.left });
      break;
    }
  }
  if (found.length === 0) return null;
  const { x, y, down, across } = found[Math.min(found.length - 1, Math.floor(pick * found.length))];
  return {
    candidates: found.length,
    path: [
      { x, y },
      { x, y: y + down, steps: 12 },
      { x: x + across, y: y + down - 40, steps: 12 },
    ],
  };
}

/**
 * In the page: resolves once the main thread has been idle for a few idle periods in a row (a long idle period is
 * 50 ms), so a drag starts on a quiet page rather than behind the previous drop's rendering; false after `timeoutMs`.
 */
function mainThreadIdle(timeoutMs) {
  return new Promise((resolve) => {
    const deadline = performance.now() + timeoutMs;
    let quiet = 0;
    const step = (idle) => {
      quiet = idle.timeRemaining() >= 45 ? quiet + 1 : 0;
      if (quiet >= 4) resolve(true);
      else if (performance.now() > deadline) resolve(false);
      else requestIdleCallback(step);
    };
    requestIdleCallback(step);
  });
}

/** Resolves once no API request has been open for `quietMs` (at most `timeoutMs`). */
function apiQuiet(tracker, { quietMs = 400, timeoutMs = 20_000 } = {}) {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve) => {
    const check = () => {
      const quietFor = Date.now() - tracker.lastChange;
      if ((tracker.open === 0 && quietFor >= quietMs) || Date.now() > deadline) resolve();
      else setTimeout(check, 50);
    };
    check();
  });
}

/**
 * One page load: the calendar opened signed in, the grid waited for, the CPU slowed, then `drags` drags (tasks and
 * events alternating when tasks are on the grid). Returns the figures of this load.
 */
async function measureLoad({ stack, session, drags, seed, log }) {
  const browser = await launchBrowser({ viewport: VIEWPORT });
  const { page } = browser;
  try {
    await storeSession(page, stack.shellUrl, session);
    const tracker = { open: 0, lastChange: Date.now() };
    const isApi = (request) => request.url().startsWith(stack.apiBaseUrl);
    const settle = (request) => {
      if (!isApi(request)) return;
      tracker.open -= 1;
      tracker.lastChange = Date.now();
    };
    page.on('request', (request) => {
      if (!isApi(request)) return;
      tracker.open += 1;
      tracker.lastChange = Date.now();
    });
    page.on('requestfinished', settle);
    page.on('requestfailed', settle);

    const loadStarted = Date.now();
    await page.goto(`${stack.shellUrl}/app/calendar`);
    await page.getByRole('heading', { level: 1, name: 'Calendar' }).waitFor({ timeout: 60_000 });
    const eventBlocks = `.fc-timegrid-event:not(.fc-event-mirror)`;
    // Where more than a few blocks overlap, the grid draws some and puts the rest behind a "+N" link: the events
    // are shown once those drawn and those behind the links add up to the week's (the tasks, read apart, are at most
    // WEEK.tasks of them, so the count cannot be reached before the events are on the grid).
    const shownBy = Date.now() + 60_000;
    for (;;) {
      const { drawn, behindLinks } = await page.evaluate(gridCounts, [eventBlocks, EVENT_TITLE]);
      if (drawn + behindLinks >= WEEK.events) break;
      if (Date.now() > shownBy)
        throw new Error(`only ${drawn} + ${behindLinks} of ${WEEK.events} events shown`);
      await page.waitForTimeout(250);
    }
    const gridShownMs = Date.now() - loadStarted;
    // The tasks come from a read of their own: the grid is complete once the API has been quiet a while.
    await apiQuiet(tracker, { quietMs: 1000 });
    // Blocks by their seeded title (a block moved across midnight shows as two pieces but counts once).
    const countBlocks = (title) =>
      page.evaluate(
        ([selector, text]) =>
          new Set(
            [...document.querySelectorAll(selector)]
              .map((block) => block.textContent.match(new RegExp(`${text}\\d+`))?.[0])
              .filter(Boolean),
          ).size,
        [eventBlocks, title],
      );
    // Drawn blocks, the ones a drag can pick; the rest of the week's are behind "+N" links.
    const shown = {
      events: await countBlocks(EVENT_TITLE),
      tasks: (await countBlocks(TASK_TITLE)) + (await countBlocks(DONE_TASK_TITLE)),
      behindLinks: (await page.evaluate(gridCounts, [eventBlocks, EVENT_TITLE])).behindLinks,
    };

    // Lighthouse's CPU index of this machine as it is now (1000+ is a desktop-class CPU, which its 4x assumes).
    const benchmarkIndex = await page.evaluate(pageFunctions.computeBenchmarkIndex);
    await page.evaluate(installObservers);
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });

    const random = randomNumbers(seed);
    const results = [];
    for (let index = 0; index < drags; index += 1) {
      const kind = shown.tasks > 0 && index % 2 === 1 ? 'task' : 'event';
      if (!(await page.evaluate(mainThreadIdle, 30_000)))
        log(`drag ${index + 1}: the page was not idle after 30 s`);
      const plan = await page.evaluate(planDrag, {
        title: kind === 'task' ? TASK_TITLE : EVENT_TITLE,
        pick: random(),
      });
      if (!plan) {
        log(`drag ${index + 1}: no ${kind} block with room to drag was visible`);
        continue;
      }
      const [from, ...moves] = plan.path;
      const saved = page
        .waitForResponse(
          (response) =>
            response.request().method() === 'PATCH' && /\/(events|tasks)\/[^/]+$/.test(response.url()),
          { timeout: 30_000 },
        )
        .then((response) => response.ok())
        .catch(() => false);
      await page.mouse.move(from.x, from.y);
      await page.waitForTimeout(100);
      const downAt = await page.evaluate(() => performance.now());
      await page.mouse.down();
      await page.waitForTimeout(80);
      for (const to of moves) {
        await page.mouse.move(to.x, to.y, { steps: to.steps });
        await page.waitForTimeout(60);
      }
      const upAt = await page.evaluate(() => performance.now());
      await page.mouse.up();
      const ok = await saved;
      await apiQuiet(tracker);
      // Lets the re-read week be drawn and the observers be handed their entries.
      await page.evaluate(mainThreadIdle, 30_000);
      const endAt = await page.evaluate(() => performance.now());
      const held = await page.evaluate(([a, b]) => window.__dragBench.read(a, b), [downAt, upAt]);
      const whole = await page.evaluate(([a, b]) => window.__dragBench.read(a, b), [downAt, endAt]);
      const after = await page.evaluate(([a, b]) => window.__dragBench.read(a, b), [upAt, endAt]);
      const worstMs = Math.max(0, ...whole.interactions.map((entry) => entry.duration));
      results.push({
        kind,
        saved: ok,
        worstMs,
        interactions: whole.interactions.length,
        heldLongTaskMs: held.longestTaskMs,
        afterLongTaskMs: after.longestTaskMs,
      });
      log(
        `drag ${index + 1} (${kind}, ${plan.candidates} candidates): interaction ${Math.round(worstMs)} ms ` +
          `(${whole.interactions.map((entry) => `${entry.name} ${Math.round(entry.duration)}`).join(', ') || 'none >= 16 ms'}), ` +
          `longest task held ${Math.round(held.longestTaskMs)} ms, after the drop ${Math.round(after.longestTaskMs)} ms` +
          (ok ? '' : ', NOT SAVED'),
      );
    }
    if (browser.pageErrors.length)
      log(`page errors: ${browser.pageErrors.map((error) => error.message).join('; ')}`);
    const worstOf = (list) => (list.length ? Math.max(...list.map((result) => result.worstMs)) : null);
    const savedDrags = results.filter((result) => result.saved);
    return {
      shown,
      gridShownMs,
      benchmarkIndex,
      drags: results.length,
      savedDrags: savedDrags.length,
      taskDrags: results.filter((result) => result.kind === 'task').length,
      // A drag the app did not save (nothing moved) is no drag: it does not count.
      inpMs: worstOf(savedDrags),
      eventInpMs: worstOf(savedDrags.filter((result) => result.kind === 'event')),
      taskInpMs: worstOf(savedDrags.filter((result) => result.kind === 'task')),
      heldLongTaskMs: Math.max(0, ...results.map((result) => result.heldLongTaskMs)),
      afterLongTaskMs: Math.max(0, ...results.map((result) => result.afterLongTaskMs)),
    };
  } finally {
    await browser.close();
  }
}

/**
 * The bench: one stack, one seeded week, `loads` page loads of `drags` drags each. Returns the medians over the
 * loads, what the grid showed and whether tasks could be dragged.
 */
export async function calendarDrag({ loads = 3, drags = 5, log = () => {} } = {}) {
  const stack = await startStack();
  try {
    const started = Date.now();
    const session = await seedBusyWeek(stack.apiBaseUrl);
    log(
      `seeded ${WEEK.events} events and ${WEEK.tasks} tasks in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    const samples = [];
    for (let load = 1; load <= loads; load += 1) {
      const sample = await measureLoad({
        stack,
        session,
        drags,
        seed: load,
        log: (line) => log(`load ${load}/${loads} ${line}`),
      });
      log(
        `load ${load}/${loads}: ${sample.shown.events} events and ${sample.shown.tasks} tasks on the grid, ` +
          `${sample.shown.behindLinks} behind "+N" links ` +
          `(${(sample.gridShownMs / 1000).toFixed(1)} s), CPU index ${Math.round(sample.benchmarkIndex)}, ${sample.savedDrags}/${sample.drags} drags saved, ` +
          `INP ${sample.inpMs === null ? '-' : Math.round(sample.inpMs)} ms`,
      );
      samples.push(sample);
    }
    const valid = samples.filter((sample) => sample.inpMs !== null);
    const pick = (key) => median(valid.map((sample) => sample[key]));
    return {
      loads: valid.length,
      dragsPerLoad: drags,
      tasksOnGrid: samples.every((sample) => sample.shown.tasks > 0),
      tasksDragged: valid.some((sample) => sample.taskDrags > 0 && sample.taskInpMs !== null),
      shown: {
        events: median(samples.map((sample) => sample.shown.events)),
        tasks: median(samples.map((sample) => sample.shown.tasks)),
        behindLinks: median(samples.map((sample) => sample.shown.behindLinks)),
      },
      inpMs: pick('inpMs'),
      eventInpMs: pick('eventInpMs'),
      taskInpMs: pick('taskInpMs'),
      heldLongTaskMs: pick('heldLongTaskMs'),
      afterLongTaskMs: pick('afterLongTaskMs'),
      gridShownMs: pick('gridShownMs'),
      benchmarkIndex: pick('benchmarkIndex'),
      samples,
    };
  } finally {
    await stack.stop();
  }
}
