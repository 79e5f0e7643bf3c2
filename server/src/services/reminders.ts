import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { UserRow } from '../db/schema.js';
import { newId } from '../lib/ids.js';
import { PUSH_TIMEOUT_MS } from '../lib/outbound/push-request.js';
import { RECORD_QUOTAS } from '../lib/quotas.js';
import { instantOfLocalTime, localDateAt, localHHMMAt, addDays } from '../lib/time-zone.js';
import { SERIES_COLUMNS } from '../plugins/app/series-queries.js';
import type { NotificationSettings } from '../schemas/notifications.js';
import {
  PushError,
  notificationSettingsOf,
  sendPush,
  subscriptionsOf,
  type PushKind,
  type PushPayload,
} from './push.js';
import { expandEvents, expandTasks } from './series.js';
import { TIMER_LIMIT_MS } from './time-entries.js';

/**
 * Reminders by Web Push (issue 32; docs/product.md, "Reminders"). What is due is computed, never stored ahead as a
 * plan: `remindersOf` derives a person's reminders in a span of time from their events (series expanded, subscribed
 * calendars when they count in the budget), scheduled tasks, running timer and settings. Every instance's scan, each
 * job tick, inserts one delivery row per (reminder, browser) for what falls due soon, insert-or-ignore on a unique
 * key, and sends a delivery job for each row due now. A delivery claims its row with a lease in one UPDATE, checks
 * that the reminder still stands (computed again: a deleted or moved event no longer yields its key), sends the push,
 * and marks the row sent. An instance killed mid-delivery leaves its lease to expire, and a later scan sends the row
 * again on whichever instance is up.
 *
 * Where exactly-once ends: between the push service accepting a push and the row being marked sent. An instance that
 * dies there leaves a row another instance sends again. The push carries a Topic and its notification a tag, both the
 * reminder's own, so the push service replaces an undelivered copy and the device shows one notification.
 */

/** A reminder missed by more than this (the app was down) is dropped, not sent late in a burst. */
export const REMINDER_GRACE_MS = 10 * 60_000;
/** How far ahead the scan inserts rows: a person's reminders are computed before they fall due. */
export const REMINDER_LOOKAHEAD_MS = 15 * 60_000;
/**
 * How long a delivery holds its row: twice a push request's bound, so only a delivery whose instance died (or stalled
 * that long) loses its row to another.
 */
export const REMINDER_LEASE_MS = 2 * PUSH_TIMEOUT_MS;
/** How long delivery rows are kept after they fell due (none is planned again: the scan looks back GRACE only). */
export const REMINDER_RETENTION_MS = 24 * 60 * 60_000;
/** Per scan: people whose reminders are computed, rows sent to delivery, old rows deleted. The rest: next tick. */
export const REMINDER_SCAN_LIMITS = { people: 500, deliveries: 500, sweep: 1000, perPerson: 500 } as const;

export const REMINDER_JOB = 'reminder-delivery';

export interface Reminder {
  /** The reminder and the instant it is due: what one delivery row stands for (a moved event makes a new key). */
  key: string;
  kind: Exclude<PushKind, 'test'>;
  dueAt: number;
  /** After this the reminder is stale: the push service keeps it for a device that is offline until then. */
  staleAt: number;
  payload: PushPayload;
}

type Person = Pick<UserRow, 'id' | 'timeZone'>;

const MINUTE_MS = 60_000;
/** How long a plan-day nudge or a 12-hour stop notice stays worth showing to a device that was offline. */
const NOTICE_LIFETIME_MS = 60 * MINUTE_MS;

/** The Topic header of a reminder's pushes: at most 32 base64url characters, the same for every copy of it. */
export const topicOf = (tag: string) => createHash('sha256').update(tag).digest('base64url').slice(0, 32);

function reminder(
  kind: Reminder['kind'],
  subject: string,
  dueAt: number,
  staleAt: number,
  content: Pick<PushPayload, 'title' | 'body' | 'url'>,
): Reminder {
  const tag = `${kind}:${subject}`;
  return { key: `${tag}@${dueAt}`, kind, dueAt, staleAt, payload: { kind, tag, ...content } };
}

const hhmm = (person: Person, instant: number) => localHHMMAt(person.timeZone, instant);

/** Timed events starting in [from, to) + lead, in calendars that count in the budget: reminded `lead` before. */
async function eventReminders(
  app: FastifyInstance,
  person: Person,
  from: number,
  to: number,
  leadMinutes: number,
) {
  const lead = leadMinutes * MINUTE_MS;
  const range = { from: from + lead, to: to + lead };
  const rows = await app.db
    .selectFrom('events')
    .select(['id', 'title', 'startAt', 'endAt', 'allDay', ...SERIES_COLUMNS])
    .where('userId', '=', person.id)
    .where('endAt', '>=', range.from)
    .where('startAt', '<', range.to)
    .where('allDay', '=', 0)
    .where('calendarId', 'not in', (eb) =>
      eb
        .selectFrom('calendars')
        .select('id')
        .where('calendars.userId', '=', person.id)
        .where('countsInBudget', '=', 0),
    )
    .limit(RECORD_QUOTAS.events)
    .execute();
  const events = await expandEvents(app, person.id, rows, range);
  return events
    .filter((event) => event.startAt >= range.from && event.startAt < range.to)
    .map((event) =>
      reminder('event-reminder', `${event.id}:${event.startAt}`, event.startAt - lead, event.startAt, {
        title: event.title,
        // The clock time, not "in N minutes": a reminder planned late (an event added a few minutes before) or
        // sent late (within the grace window) says the truth all the same.
        body: `Starts at ${hhmm(person, event.startAt)}`,
        url: `/app/calendar?date=${localDateAt(person.timeZone, event.startAt)}`,
      }),
    );
}

/** Scheduled tasks, neither done nor put aside, starting in [from, to): reminded at their start. */
async function taskReminders(app: FastifyInstance, person: Person, from: number, to: number) {
  const rows = await app.db
    .selectFrom('tasks')
    .selectAll()
    .where('userId', '=', person.id)
    .where((eb) => eb.or([eb('scheduled', '=', 1), eb('occurrenceMs', 'is not', null)]))
    .where('endAt', '>=', from)
    .where('startAt', '<', to)
    .limit(RECORD_QUOTAS.tasks)
    .execute();
  const tasks = await expandTasks(app, person.id, rows, { from, to });
  return tasks
    .filter(
      (task) =>
        task.scheduled === 1 &&
        task.done === 0 &&
        task.dismissed === 0 &&
        task.startAt >= from &&
        task.startAt < to,
    )
    .map((task) =>
      reminder(
        'task-start',
        `${task.id}:${task.startAt}`,
        task.startAt,
        Math.max(task.endAt, task.startAt + MINUTE_MS),
        {
          title: task.title,
          body: `Starts now: ${hhmm(person, task.startAt)}–${hhmm(person, task.endAt)}`,
          url: '/app/today',
        },
      ),
    );
}

/**
 * The timer's alerts falling due in [from, to): the running timer passing its task's block end (when it started
 * before it), and a timer reaching its 12-hour stop, whether or not a request has settled that stop yet.
 */
async function timerReminders(app: FastifyInstance, person: Person, from: number, to: number) {
  const found: Reminder[] = [];
  const timerEntries = () =>
    app.db
      .selectFrom('timeEntries')
      .innerJoin('tasks', (join) =>
        join.onRef('tasks.id', '=', 'timeEntries.taskId').onRef('tasks.userId', '=', 'timeEntries.userId'),
      )
      .select([
        'timeEntries.id',
        'timeEntries.startAt',
        'timeEntries.endAt',
        'tasks.title',
        'tasks.scheduled',
        'tasks.endAt as blockEndAt',
      ])
      .where('timeEntries.userId', '=', person.id)
      .where('timeEntries.source', '=', 'timer');
  // Two index reads: the running entry (time_entries_running), and those whose 12-hour mark falls in the span
  // (time_entries_user_start; a closed entry's start is stored to the second).
  const running = await timerEntries().where('timeEntries.endAt', 'is', null).execute();
  const ended = await timerEntries()
    .where('timeEntries.startAt', '>', from - TIMER_LIMIT_MS - 1000)
    .where('timeEntries.startAt', '<', to - TIMER_LIMIT_MS + 1000)
    .where('timeEntries.endAt', 'is not', null)
    .limit(REMINDER_SCAN_LIMITS.perPerson)
    .execute();
  const entries = [...running, ...ended];
  const limitHours = TIMER_LIMIT_MS / (60 * MINUTE_MS);
  for (const entry of entries) {
    // From the start's second, as the entry is stored once closed: the same instant before and after the stop.
    const stopAt = Math.floor(entry.startAt / 1000) * 1000 + TIMER_LIMIT_MS;
    const running = entry.endAt === null;
    // Stopped by hand before the 12 hours: no stop to tell of. (Closed at the stop, its end is within a second.)
    const ranFull = running || entry.endAt! >= stopAt - 1000;
    if (ranFull && stopAt >= from && stopAt < to) {
      found.push(
        reminder('timer-stop', entry.id, stopAt, stopAt + NOTICE_LIFETIME_MS, {
          title: entry.title,
          body: `The timer stopped itself after ${limitHours} hours. Correct the time if it ran too long.`,
          url: '/app/today',
        }),
      );
    }
    const blockEnd = entry.blockEndAt;
    if (running && entry.scheduled === 1 && blockEnd > entry.startAt && blockEnd >= from && blockEnd < to) {
      found.push(
        reminder('timer-past-block', `${entry.id}:${blockEnd}`, blockEnd, stopAt, {
          title: entry.title,
          body: `The timer is still running: the block ended at ${hhmm(person, blockEnd)}.`,
          url: '/app/today',
        }),
      );
    }
  }
  return found;
}

/** The "plan your day" nudge at `at` (HH:MM) local time of each day, falling in [from, to). */
function planDayReminders(person: Person, from: number, to: number, at: string): Reminder[] {
  const found: Reminder[] = [];
  const zone = person.timeZone;
  const last = localDateAt(zone, to);
  // The day before `from` too: a nudge late in the evening of a zone behind UTC may fall after midnight UTC.
  for (let date = addDays(localDateAt(zone, from), -1); date <= last; date = addDays(date, 1)) {
    // A time that summer time skips moves forward by the gap; one it repeats is its first instant (lib/time-zone.ts).
    const dueAt = instantOfLocalTime(zone, date, at);
    if (dueAt < from || dueAt >= to) continue;
    found.push(
      reminder('plan-day', date, dueAt, dueAt + NOTICE_LIFETIME_MS, {
        title: 'Plan your day',
        body: 'A minute now: put today’s tasks in the hours you have.',
        url: '/app/today',
      }),
    );
  }
  return found;
}

/**
 * The person's reminders falling due in [from, to), by due time (at most REMINDER_SCAN_LIMITS.perPerson), from their
 * data and settings as they are now. One function for planning and for the check before sending: a reminder stands
 * when it is computed again with the same key.
 */
export async function remindersOf(
  app: FastifyInstance,
  person: Person,
  settings: NotificationSettings,
  from: number,
  to: number,
): Promise<Reminder[]> {
  const found: Reminder[] = [];
  if (settings.eventReminderMinutes !== null)
    found.push(...(await eventReminders(app, person, from, to, settings.eventReminderMinutes)));
  if (settings.taskStart) found.push(...(await taskReminders(app, person, from, to)));
  if (settings.timerAlerts) found.push(...(await timerReminders(app, person, from, to)));
  if (settings.planDayAt !== null) found.push(...planDayReminders(person, from, to, settings.planDayAt));
  return found
    .sort((a, b) => a.dueAt - b.dueAt || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .slice(0, REMINDER_SCAN_LIMITS.perPerson);
}

async function personOf(app: FastifyInstance, userId: string): Promise<Person | undefined> {
  return app.db.selectFrom('users').select(['id', 'timeZone']).where('id', '=', userId).executeTakeFirst();
}

/** Inserts the delivery rows of one person's reminders due in [from, to), one per browser, skipping those there. */
async function planPerson(app: FastifyInstance, userId: string, from: number, to: number, now: number) {
  const person = await personOf(app, userId);
  if (!person) return 0;
  const subscriptions = await subscriptionsOf(app, userId);
  if (subscriptions.length === 0) return 0;
  const reminders = await remindersOf(app, person, await notificationSettingsOf(app, userId), from, to);
  const rows = reminders.flatMap((due) =>
    subscriptions.map((subscription) => ({
      id: newId(),
      userId,
      subscriptionId: subscription.id,
      reminderKey: due.key,
      kind: due.kind,
      dueAt: due.dueAt,
      state: 'due' as const,
      leaseUntil: null,
      attempts: 0,
      createdAt: now,
      updatedAt: now,
    })),
  );
  for (let index = 0; index < rows.length; index += 200) {
    await app.db
      .insertInto('reminderDeliveries')
      .values(rows.slice(index, index + 200))
      .onConflict((conflict) => conflict.columns(['reminderKey', 'subscriptionId']).doNothing())
      .execute();
  }
  return rows.length;
}

/** Marks a claimed row as settled, if this delivery still holds it. */
async function settle(app: FastifyInstance, id: string, lease: number, state: DeliveryState, now: number) {
  await app.db
    .updateTable('reminderDeliveries')
    .set({ state, leaseUntil: null, updatedAt: now })
    .where('id', '=', id)
    .where('state', '=', 'due')
    .where('leaseUntil', '=', lease)
    .execute();
}

export type DeliveryState = 'due' | 'sent' | 'dropped' | 'cancelled' | 'gone' | 'failed';

/**
 * Delivers one row: claims it (one UPDATE: still due and no live lease), drops it when too late, cancels it when the
 * reminder no longer stands, else sends it and marks it sent. A transient failure gives the lease back and throws, so
 * the job engine retries (and a later scan sends it again if those retries run out within the grace window).
 */
export async function deliverReminder(
  app: FastifyInstance,
  id: string,
): Promise<DeliveryState | 'not-claimed'> {
  const now = app.now();
  const lease = now + REMINDER_LEASE_MS;
  const claimed = await app.db
    .updateTable('reminderDeliveries')
    .set((eb) => ({ leaseUntil: lease, attempts: eb('attempts', '+', 1), updatedAt: now }))
    .where('id', '=', id)
    .where('state', '=', 'due')
    .where('dueAt', '<=', now)
    .where((eb) => eb.or([eb('leaseUntil', 'is', null), eb('leaseUntil', '<=', now)]))
    .returningAll()
    .executeTakeFirst();
  if (!claimed) return 'not-claimed';
  const finish = async (state: DeliveryState) => {
    await settle(app, id, lease, state, app.now());
    return state;
  };
  if (now > claimed.dueAt + REMINDER_GRACE_MS) return finish('dropped');
  const person = await personOf(app, claimed.userId);
  const subscription = await app.db
    .selectFrom('pushSubscriptions')
    .selectAll()
    .where('id', '=', claimed.subscriptionId)
    .executeTakeFirst();
  // The browser unsubscribed, or another account subscribed it since.
  if (!person || !subscription || subscription.userId !== claimed.userId) return finish('gone');
  const settings = await notificationSettingsOf(app, person.id);
  const current = await remindersOf(app, person, settings, claimed.dueAt, claimed.dueAt + 1);
  const due = current.find((candidate) => candidate.key === claimed.reminderKey);
  if (!due) return finish('cancelled');
  let outcome: 'sent' | 'gone';
  try {
    outcome = await sendPush(app, subscription, due.payload, {
      ttlSeconds: Math.max(30, Math.ceil((due.staleAt - now) / 1000)),
      topic: topicOf(due.payload.tag),
      urgency: due.kind === 'plan-day' ? 'normal' : 'high',
    });
  } catch (error) {
    if (error instanceof PushError && error.permanent) {
      app.log.warn({ err: error, delivery: id }, 'reminder refused by the push service; not retried');
      return finish('failed');
    }
    // Given back at once: the job's retry (or the next scan) may claim it without waiting for the lease.
    await app.db
      .updateTable('reminderDeliveries')
      .set({ leaseUntil: null, updatedAt: app.now() })
      .where('id', '=', id)
      .where('state', '=', 'due')
      .where('leaseUntil', '=', lease)
      .execute();
    throw error;
  }
  // A 'gone' subscription's row went with it (the foreign key cascades): nothing is left to mark.
  return finish(outcome);
}

/**
 * One scan (every instance, every job tick): inserts the rows of reminders due from GRACE ago to LOOKAHEAD ahead for
 * a page of the people with a browser subscribed (the next page next tick), sends a delivery job for each row due now
 * and not held by a live lease, and deletes rows a day past due. `cursor` is where the last page of people ended.
 */
export async function scanReminders(app: FastifyInstance, cursor: { after: string } = { after: '' }) {
  const now = app.now();
  const people = await app.db
    .selectFrom('pushSubscriptions')
    .select('userId')
    .distinct()
    .where('userId', '>', cursor.after)
    .orderBy('userId')
    .limit(REMINDER_SCAN_LIMITS.people)
    .execute();
  cursor.after = people.length < REMINDER_SCAN_LIMITS.people ? '' : people.at(-1)!.userId;
  let planned = 0;
  for (const { userId } of people) {
    try {
      planned += await planPerson(app, userId, now - REMINDER_GRACE_MS, now + REMINDER_LOOKAHEAD_MS, now);
    } catch (error) {
      // One person's data that cannot be read (a series too costly to expand, a zone no longer known) must not hold
      // up everyone else's reminders: theirs are tried again next tick.
      app.log.warn(
        { err: error, userId },
        'reminders of one person could not be planned; next tick tries again',
      );
    }
  }
  const due = await app.db
    .selectFrom('reminderDeliveries')
    .select('id')
    .where('state', '=', 'due')
    .where('dueAt', '<=', now)
    .where((eb) => eb.or([eb('leaseUntil', 'is', null), eb('leaseUntil', '<=', now)]))
    .orderBy('dueAt')
    .limit(REMINDER_SCAN_LIMITS.deliveries)
    .execute();
  for (const { id } of due) await app.jobs.send(REMINDER_JOB, { id }, { key: id });
  await app.db
    .deleteFrom('reminderDeliveries')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('reminderDeliveries')
        .select('id')
        .where('dueAt', '<', now - REMINDER_RETENTION_MS)
        .limit(REMINDER_SCAN_LIMITS.sweep),
    )
    .execute();
  return { people: people.length, planned, dispatched: due.length };
}

/** Registers the delivery job and the scan on the job engine (plugins/app/jobs.ts). */
export default fp(
  async function remindersPlugin(app) {
    app.jobs.handle<{ id: string }>(REMINDER_JOB, async ({ id }) => {
      await deliverReminder(app, id);
    });
    const cursor = { after: '' };
    app.jobs.every(REMINDER_JOB, async () => {
      await scanReminders(app, cursor);
    });
  },
  { name: 'reminders', dependencies: ['jobs', 'clock', 'database'] },
);
