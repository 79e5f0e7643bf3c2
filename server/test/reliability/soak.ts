// Soak: `npm run test:soak` (root) or `npm run soak -w server`. Drives the built API (a separate process, SQLite) with
// a steady mix of reads and writes for SOAK_SECONDS (default 300) at SOAK_RATE requests per second (default 50),
// samples the API's resident memory from /proc/<pid>/status, and exits 1 when any request fails or when memory keeps
// growing: a least-squares trend of more than SOAK_RSS_GROWTH_MB (default 64) over the last 3/4 of the run. Every
// request names a time zone drawn from all the runtime knows, in random letter case: the API must cache a zone once,
// whatever its spelling (issue 13: 3,000 spellings once grew it by about 100 MB).
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { call, ensureBuilt, rssKb, signUpOn, startApi } from './support.js';

const seconds = Number(process.env.SOAK_SECONDS ?? 300);
const rate = Number(process.env.SOAK_RATE ?? 50);
const growthBoundMb = Number(process.env.SOAK_RSS_GROWTH_MB ?? 64);
const SAMPLE_EVERY_MS = 2_000;
const MAX_IN_FLIGHT = 200;

if (!(seconds > 0) || !(rate > 0) || !(growthBoundMb > 0)) {
  console.error('SOAK_SECONDS, SOAK_RATE and SOAK_RSS_GROWTH_MB must be positive numbers');
  process.exit(2);
}

await ensureBuilt();
const dataDir = await mkdtemp(path.join(tmpdir(), 'time-wallet-soak-'));
const api = await startApi({ DATA_DIR: dataDir }, 60_000);
const base = api.url;

const user = await signUpOn(base, 'soak');
const token = user.token;
const pick = <T>(items: T[]): T => items[Math.floor(Math.random() * items.length)]!;
const zones = Intl.supportedValuesOf('timeZone');
const randomCasing = (zone: string) =>
  [...zone].map((letter) => (Math.random() < 0.5 ? letter.toLowerCase() : letter.toUpperCase())).join('');
const zoneSpellings = new Set<string>();
const request = <T>(method: string, url: string, body?: unknown) => {
  const spelling = randomCasing(pick(zones));
  zoneSpellings.add(spelling);
  return call<T>(base, method, url, { token, body, headers: { 'x-time-zone': spelling } });
};

// A week of days around a fixed Wednesday; every date the traffic uses is one of these.
const days = Array.from({ length: 7 }, (_, index) => `2026-03-${String(8 + index).padStart(2, '0')}`);
const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

interface Item {
  id: string;
  busy: boolean;
}
const categories: Item[] = [];
for (const [index, name] of ['Work', 'Study', 'Sport'].entries()) {
  const created = await request<{ _id: string }>('POST', '/categories', { name, color: `#00000${index}` });
  if (created.status !== 201) throw new Error(`category: ${created.status}`);
  categories.push({ id: created.body._id, busy: false });
}
const tasks: Item[] = [];
const events: Item[] = [];
const TARGET_ITEMS = 150;

type Operation = { name: string; weight: number; run: () => Promise<{ status: number; ok: boolean }> | null };

function idle(items: Item[]): Item | undefined {
  const free = items.filter((item) => !item.busy);
  return free.length ? pick(free) : undefined;
}

/** Runs a write on an item no other request is touching, so no answer depends on the order of two requests. */
async function onItem(items: Item[], item: Item, run: () => Promise<{ status: number }>, remove = false) {
  item.busy = true;
  try {
    const answer = await run();
    if (remove && answer.status === 204) items.splice(items.indexOf(item), 1);
    return answer;
  } finally {
    item.busy = false;
  }
}

const expect =
  (...statuses: number[]) =>
  (answer: { status: number }) => ({ status: answer.status, ok: statuses.includes(answer.status) });

const operations: Operation[] = [
  {
    name: 'GET /tasks?date',
    weight: 14,
    run: () => request('GET', `/tasks?date=${pick(days)}`).then(expect(200)),
  },
  { name: 'GET /tasks/today', weight: 12, run: () => request('GET', '/tasks/today').then(expect(200)) },
  {
    name: 'GET analytics weekly',
    weight: 8,
    run: () => request('GET', `/aggregation/analytics/weekly?date=${pick(days)}`).then(expect(200)),
  },
  {
    name: 'GET /events (week)',
    weight: 10,
    run: () => request('GET', '/events?from=2026-03-08&to=2026-03-15').then(expect(200)),
  },
  { name: 'GET /categories', weight: 6, run: () => request('GET', '/categories').then(expect(200)) },
  {
    name: 'POST /tasks',
    weight: 10,
    run: () => {
      if (tasks.length >= TARGET_ITEMS * 1.2) return null;
      const start = 6 * 60 + Math.floor(Math.random() * 60) * 15;
      return request<{ _id: string }>('POST', '/tasks', {
        title: `Soak task ${Date.now()}`,
        categoryId: pick(categories).id,
        date: pick(days),
        startHHMM: hhmm(start),
        endHHMM: hhmm(start + 15 + Math.floor(Math.random() * 4) * 15),
        notes: 'x'.repeat(Math.floor(Math.random() * 200)),
      }).then((answer) => {
        if (answer.status === 201) tasks.push({ id: answer.body._id, busy: false });
        return expect(201)(answer);
      });
    },
  },
  {
    name: 'PATCH /tasks/:id',
    weight: 8,
    run: () => {
      const task = idle(tasks);
      if (!task) return null;
      const change = Math.random() < 0.5 ? { done: Math.random() < 0.5 } : { title: `Renamed ${Date.now()}` };
      return onItem(tasks, task, () => request('PATCH', `/tasks/${task.id}`, change)).then(expect(200));
    },
  },
  {
    name: 'DELETE /tasks/:id',
    weight: 6,
    run: () => {
      const task = tasks.length > TARGET_ITEMS * 0.8 || Math.random() < 0.5 ? idle(tasks) : undefined;
      if (!task) return null;
      return onItem(tasks, task, () => request('DELETE', `/tasks/${task.id}`), true).then(expect(204));
    },
  },
  {
    name: 'POST /events',
    weight: 6,
    run: () => {
      if (events.length >= TARGET_ITEMS * 1.2) return null;
      const start = Date.parse(`${pick(days)}T08:00:00Z`) + Math.floor(Math.random() * 40) * 15 * 60_000;
      return request<{ _id: string }>('POST', '/events', {
        title: `Soak event ${Date.now()}`,
        start: new Date(start).toISOString(),
        end: new Date(start + 45 * 60_000).toISOString(),
      }).then((answer) => {
        if (answer.status === 201) events.push({ id: answer.body._id, busy: false });
        return expect(201)(answer);
      });
    },
  },
  {
    name: 'PATCH /events/:id',
    weight: 4,
    run: () => {
      const event = idle(events);
      if (!event) return null;
      return onItem(events, event, () =>
        request('PATCH', `/events/${event.id}`, { title: `Moved ${Date.now()}` }),
      ).then(expect(200));
    },
  },
  {
    name: 'DELETE /events/:id',
    weight: 4,
    run: () => {
      const event = events.length > TARGET_ITEMS * 0.8 || Math.random() < 0.5 ? idle(events) : undefined;
      if (!event) return null;
      return onItem(events, event, () => request('DELETE', `/events/${event.id}`), true).then(expect(204));
    },
  },
  {
    name: 'PATCH /categories/:id',
    weight: 2,
    run: () => {
      const category = idle(categories);
      if (!category) return null;
      return onItem(categories, category, () =>
        request('PATCH', `/categories/${category.id}`, { name: `Category ${Date.now() % 100_000}` }),
      ).then(expect(200));
    },
  },
];
const totalWeight = operations.reduce((sum, operation) => sum + operation.weight, 0);

function chooseOperation(): Operation {
  let roll = Math.random() * totalWeight;
  for (const operation of operations) {
    roll -= operation.weight;
    if (roll < 0) return operation;
  }
  return operations[0]!;
}

const latencies: number[] = [];
const perOperation = new Map<string, number>();
const failures: string[] = [];
let errors = 0;
let inFlight = 0;
let overloaded = 0;
const samples: { at: number; rssKb: number }[] = [];
const sample = (at: number) =>
  samples.push({ at, rssKb: rssKb(readFileSync(`/proc/${api.pid}/status`, 'utf8')) });

const startedAt = Date.now();
const endsAt = startedAt + seconds * 1000;
sample(0);
const sampler = setInterval(() => sample(Date.now() - startedAt), SAMPLE_EVERY_MS);
const pending = new Set<Promise<void>>();

function fire() {
  if (inFlight >= MAX_IN_FLIGHT) {
    overloaded += 1;
    return;
  }
  let operation = chooseOperation();
  let started = operation.run();
  // Writes that have nothing to act on (or would grow the data set too far) give way to a read.
  while (started === null) {
    operation = chooseOperation();
    started = operation.run();
  }
  const began = performance.now();
  inFlight += 1;
  const done = started
    .then(
      (answer) => {
        latencies.push(performance.now() - began);
        perOperation.set(operation.name, (perOperation.get(operation.name) ?? 0) + 1);
        if (!answer.ok) {
          errors += 1;
          if (failures.length < 20) failures.push(`${operation.name}: ${answer.status}`);
        }
      },
      (error: Error) => {
        errors += 1;
        if (failures.length < 20) failures.push(`${operation.name}: ${error.message}`);
      },
    )
    .finally(() => {
      inFlight -= 1;
      pending.delete(done);
    });
  pending.add(done);
}

// Open loop at a steady rate: request n goes out at startedAt + n / rate, whatever the answers' speed.
let sent = 0;
let lastReport = startedAt;
while (Date.now() < endsAt) {
  const due = Math.floor(((Date.now() - startedAt) / 1000) * rate);
  while (sent < due) {
    sent += 1;
    fire();
  }
  if (Date.now() - lastReport >= 30_000) {
    lastReport = Date.now();
    const rss = samples.at(-1)!.rssKb;
    console.log(
      `  ${Math.round((lastReport - startedAt) / 1000)} s: ${latencies.length} answered, ${errors} errors, ` +
        `RSS ${(rss / 1024).toFixed(1)} MB, ${tasks.length} tasks, ${events.length} events`,
    );
  }
  await new Promise((resolve) => setTimeout(resolve, 5));
}
await Promise.all([...pending]);
clearInterval(sampler);
sample(Date.now() - startedAt);
const elapsedSeconds = (Date.now() - startedAt) / 1000;

api.child.kill('SIGTERM');
const { code: exitCode } = await api.exited;
const serverOutput = api.output().trim();
await rm(dataDir, { recursive: true, force: true });

const sorted = [...latencies].sort((x, y) => x - y);
const percentile = (p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const mb = (kb: number) => kb / 1024;
// Growth over the last 3/4 of the run (the first quarter warms up: JIT, caches, heap sizing): the least-squares trend
// of the samples, so the garbage collector's saw-tooth does not count as growth and a leak's steady climb does.
const quarter = (seconds * 1000) / 4;
const later = samples.filter((entry) => entry.at >= quarter);
const meanAt = later.reduce((sum, entry) => sum + entry.at, 0) / later.length;
const meanRss = later.reduce((sum, entry) => sum + entry.rssKb, 0) / later.length;
const slope =
  later.reduce((sum, entry) => sum + (entry.at - meanAt) * (entry.rssKb - meanRss), 0) /
  Math.max(
    1,
    later.reduce((sum, entry) => sum + (entry.at - meanAt) ** 2, 0),
  );
const growthMb = mb(slope * (later.at(-1)!.at - later[0]!.at));
const rssValues = samples.map((entry) => entry.rssKb);

console.log('\nSoak report');
console.log(
  `  duration        ${elapsedSeconds.toFixed(1)} s at ${rate} req/s (SQLite, built API pid ${api.pid})`,
);
console.log(
  `  requests        ${sent} sent, ${latencies.length} answered` +
    ` (${(sent / elapsedSeconds).toFixed(1)} req/s), ${overloaded} not sent (over ${MAX_IN_FLIGHT} in flight)`,
);
for (const [name, count] of [...perOperation].sort((x, y) => y[1] - x[1])) {
  console.log(`    ${name.padEnd(22)} ${count}`);
}
console.log(
  `  time zones      ${zoneSpellings.size} distinct X-Time-Zone spellings of ${zones.length} zones (random letter case)`,
);
console.log(`  errors          ${errors}${failures.length ? `: ${failures.join('; ')}` : ''}`);
console.log(
  `  latency         p50 ${percentile(50).toFixed(1)} ms, p99 ${percentile(99).toFixed(1)} ms, ` +
    `max ${(sorted.at(-1) ?? 0).toFixed(1)} ms`,
);
console.log(
  `  RSS             start ${mb(rssValues[0]!).toFixed(1)} MB, max ${mb(Math.max(...rssValues)).toFixed(1)} MB, ` +
    `end ${mb(rssValues.at(-1)!).toFixed(1)} MB (${samples.length} samples every ${SAMPLE_EVERY_MS / 1000} s)`,
);
console.log(
  `  RSS growth      ${growthMb.toFixed(1)} MB over the last 3/4 (trend of the ${later.length} samples from ` +
    `${(later[0]!.at / 1000).toFixed(0)} s, ${mb(later[0]!.rssKb).toFixed(1)} MB then); bound ${growthBoundMb} MB`,
);
console.log(
  `  server exit     ${exitCode} after SIGTERM; server log lines at warn or above: ${serverOutput ? serverOutput.split('\n').length : 0}`,
);

const problems: string[] = [];
if (errors > 0) problems.push(`${errors} requests failed`);
if (overloaded > 0) problems.push(`${overloaded} requests could not be sent: the API fell behind`);
if (growthMb > growthBoundMb) problems.push(`RSS grew ${growthMb.toFixed(1)} MB (bound ${growthBoundMb} MB)`);
if (exitCode !== 0) problems.push(`the API exited with ${exitCode} after SIGTERM`);
if (serverOutput) problems.push(`the API logged warnings or errors:\n${serverOutput.slice(0, 2000)}`);
if (problems.length) {
  console.log(`\nSOAK FAILED: ${problems.join('; ')}`);
  process.exit(1);
}
console.log('\nSOAK PASSED');
