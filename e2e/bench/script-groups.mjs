// Main-thread time of one Lighthouse run, by script, grouped as issue 33's reader asks: react-dom, the federation
// runtime, the shell's own chunks, each remote's chunks, FullCalendar and the rest. Lighthouse's own audits give the
// figures (`long-tasks`: every task of 50 ms or more, with the script it is attributed to; `bootup-time`: scripting
// and parse time per script of 50 ms or more; `mainthread-work-breakdown`: time per kind of work); this module only
// groups them. Under the mobile preset's simulated throttling they are already multiplied by the 4x CPU slowdown.
//
// A script's group: the dominant kind of code in its source map (react-dom, @module-federation, FullCalendar, by
// bytes of source), else the app whose origin served it (the devkit's registry names the apps). Lighthouse attributes
// a task to the outermost script on its stack, so a React render started by react-dom's scheduler counts as react-dom.
//
// Normalising: a figure is also given as "ms on a 1000-index machine", ms x benchmarkIndex / 1000, with the
// benchmarkIndex Lighthouse measured at the start of that same run (lhr.environment.benchmarkIndex): a run on a
// machine slowed by its neighbours has a lower index and longer tasks, and the product of the two is meant to move less.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { MainThreadTasks } from 'lighthouse/core/computed/main-thread-tasks.js';
import { NetworkRecords } from 'lighthouse/core/computed/network-records.js';
import { getAttributableURLForTask, getJavaScriptURLs } from 'lighthouse/core/lib/tracehouse/task-summary.js';

const require = createRequire(import.meta.url);
const { repoRoot, remotes, shell } = require('@time-wallet/devkit/apps');

/** The audits this module reads; lighthouse.mjs adds them to its list when the figures are asked for. */
export const SCRIPT_AUDITS = ['bootup-time', 'long-tasks', 'mainthread-work-breakdown'];

/** Library groups, by the packages whose source makes up most of a chunk. */
const LIBRARIES = [
  { group: 'react-dom', packages: /^(react-dom|react|scheduler)$/ },
  { group: 'federation runtime', packages: /^@module-federation\// },
  { group: 'FullCalendar', packages: /^(@fullcalendar\/|preact$)/ },
];
const appName = (app) => app.dir;
/** Every group, in the order a table shows them. */
export const SCRIPT_GROUPS = [
  'react-dom',
  'federation runtime',
  appName(shell),
  ...remotes.map(appName),
  'FullCalendar',
  'other',
];

/** The apps' origins and the dist folders they serve, for a stack (e2e/support/stack.mjs) serving `distDirs`. */
export function originsOfStack(stack, distDirs = {}) {
  return [shell, ...remotes].map((app) => ({
    origin: stack.originOf(app.federationName),
    group: appName(app),
    distDir: distDirs[app.federationName] ?? path.join(repoRoot, app.dir, 'dist'),
  }));
}

/** The package a source of a webpack source map belongs to ('react-dom', '@fullcalendar/core'), or null. */
function packageOf(source) {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source);
  return match ? match[1] : null;
}

/** The library group whose code is most of the chunk `file` (by its source map), or null (the app's own). */
function libraryOfChunk(file) {
  let map;
  try {
    map = JSON.parse(fs.readFileSync(`${file}.map`, 'utf8'));
  } catch {
    return null;
  }
  const bytes = new Map();
  map.sources.forEach((source, index) => {
    const size = map.sourcesContent?.[index]?.length ?? 1;
    const name = packageOf(source);
    const group = LIBRARIES.find((library) => name && library.packages.test(name))?.group ?? 'app';
    bytes.set(group, (bytes.get(group) ?? 0) + size);
  });
  const [top] = [...bytes].sort((a, b) => b[1] - a[1]);
  return top && top[0] !== 'app' ? top[0] : null;
}

/** A function from a script's URL to its group; each chunk's source map is read once. */
export function createScriptClassifier(origins) {
  const cache = new Map();
  return (url) => {
    let parsed;
    try {
      parsed = new URL(url);
    } catch {
      return 'other'; // Lighthouse's 'Unattributable', 'Browser', 'Browser GC'
    }
    const served = origins.find((entry) => entry.origin === parsed.origin);
    if (!served || !parsed.pathname.endsWith('.js')) return 'other';
    const file = path.join(served.distDir, decodeURIComponent(parsed.pathname));
    if (!cache.has(file)) cache.set(file, libraryOfChunk(file) ?? served.group);
    return cache.get(file);
  };
}

const add = (sums, key, ms) => {
  sums[key] = (sums[key] ?? 0) + ms;
};

/**
 * One run's figures, raw (simulated ms, as Lighthouse reports them): long-task ms by group and in all, the scripts'
 * bootup (evaluation + parse) ms by group, the main thread's time by kind of work, and the run's benchmarkIndex.
 */
export function scriptFigures(lhr, classify) {
  const longTaskMs = {};
  let longTaskTotalMs = 0;
  let longTaskCount = 0;
  // debugData holds every long task; the table itself stops at 20.
  const debug = lhr.audits['long-tasks']?.details?.debugData;
  for (const task of debug?.tasks ?? []) {
    add(longTaskMs, classify(debug.urls[task.urlIndex]), task.duration);
    longTaskTotalMs += task.duration;
    longTaskCount += 1;
  }
  const bootupMs = {};
  for (const item of lhr.audits['bootup-time']?.details?.items ?? []) {
    add(bootupMs, classify(item.url), (item.scripting ?? 0) + (item.scriptParseCompile ?? 0));
  }
  const workMs = {};
  for (const item of lhr.audits['mainthread-work-breakdown']?.details?.items ?? []) {
    add(workMs, item.group, item.duration);
  }
  return {
    benchmarkIndex: lhr.environment?.benchmarkIndex ?? null,
    longTaskCount,
    longTaskTotalMs,
    longTaskMs,
    bootupMs,
    workMs,
  };
}

/**
 * The main thread's CPU time from the run's trace, by group: each top-level task's thread time (the trace event's
 * `tdur`: time the thread ran, not the wall time that grows while a busy machine holds the thread off the CPU),
 * multiplied by the run's simulated CPU slowdown to compare with the simulated figures. `cpuMs`: every task;
 * `cpuLongTaskMs`: the tasks of 50 ms or more so counted; `wallTotalMs`: the same tasks' wall time (x the slowdown),
 * so wall / CPU shows how long the thread waited for a CPU. Attribution as Lighthouse's (the outermost script; a
 * promise continuation has no script on its stack and counts as 'other', with layout, paint, GC and the HTML).
 */
export async function threadTimeFigures(artifacts, lhr, classify) {
  const settings = lhr.configSettings ?? {};
  const slowdown = settings.throttlingMethod === 'simulate' ? settings.throttling.cpuSlowdownMultiplier : 1;
  const context = { computedCache: new Map() };
  const tasks = await MainThreadTasks.request(artifacts.Trace, context);
  const jsUrls = getJavaScriptURLs(await NetworkRecords.request(artifacts.DevtoolsLog, context));
  const cpuMs = {};
  const cpuLongTaskMs = {};
  let cpuTotalMs = 0;
  let wallTotalMs = 0;
  let cpuLongTaskTotalMs = 0;
  let withoutThreadTime = 0;
  for (const task of tasks) {
    if (task.parent || task.unbounded) continue;
    if (typeof task.event.tdur !== 'number') {
      withoutThreadTime += 1;
      continue;
    }
    const ms = (task.event.tdur / 1000) * slowdown;
    const group = classify(getAttributableURLForTask(task, jsUrls));
    add(cpuMs, group, ms);
    cpuTotalMs += ms;
    wallTotalMs += task.duration * slowdown;
    if (ms >= 50) {
      add(cpuLongTaskMs, group, ms);
      cpuLongTaskTotalMs += ms;
    }
  }
  return { slowdown, cpuTotalMs, wallTotalMs, cpuMs, cpuLongTaskTotalMs, cpuLongTaskMs, withoutThreadTime };
}

/** ms on a 1000-index machine: ms x benchmarkIndex / 1000 (null without an index). */
export function normalised(ms, benchmarkIndex) {
  if (typeof ms !== 'number' || !benchmarkIndex) return null;
  return (ms * benchmarkIndex) / 1000;
}

export const NORMALISED_HEADER =
  "normalised = ms x benchmarkIndex / 1000, i.e. ms on a machine of Lighthouse's CPU index 1000, with the index " +
  'Lighthouse measured at the start of that same run; long tasks are those of 50 ms or more under the 4x simulated ' +
  'CPU slowdown, each attributed (by Lighthouse) to the outermost script on its stack';
