import type { FastifyInstance } from 'fastify';
import { PostgresAdapter } from 'kysely';
import { readOrCreateVapidKeys, type AppConfig, type VapidKeys } from '../config.js';
import type { PushSubscriptionRow } from '../db/schema.js';
import { isUniqueViolation } from '../lib/db-errors.js';
import { HttpError } from '../lib/http-errors.js';
import { newId } from '../lib/ids.js';
import { postPush } from '../lib/outbound/push-request.js';
import { webPush } from '../lib/packages-loaded-on-use.js';
import { toNotificationSettingsJson, type NotificationSettings } from '../schemas/notifications.js';

export type { PushSubscriptionRow } from '../db/schema.js';

/** What a notification is about; the service worker shows it and opens `url` on a click. */
export type PushKind =
  'event-reminder' | 'task-start' | 'timer-past-block' | 'timer-stop' | 'plan-day' | 'test';

/** The JSON a push carries, encrypted to the browser (aes128gcm). */
export interface PushPayload {
  kind: PushKind;
  title: string;
  body: string;
  /** A path of the app to open on a click, such as '/app/calendar?date=2026-11-28' or '/app/today'. */
  url: string;
  /** The notification's tag: a later one with the same tag replaces it on the device. */
  tag: string;
}

export interface SendPushOptions {
  /** How long the push service keeps the push for a device that is offline (0: deliver now or never). */
  ttlSeconds: number;
  /** A later push with the same topic replaces one not yet delivered (base64url characters, at most 32). */
  topic?: string;
  urgency?: 'low' | 'normal' | 'high';
}

/** Devices one account may subscribe; past it, adding one answers 409 until one is removed. */
export const MAX_DEVICES_PER_ACCOUNT = 20;
/** The job that sends the test notification to one device (POST /push/test). */
export const TEST_PUSH_JOB = 'push-test';
/** Bounds of what a push shows: with the url and tag the JSON stays well under a push's 4 KB (UTF-8, 4 bytes each). */
export const PUSH_TITLE_MAX = 120;
export const PUSH_BODY_MAX = 600;
/**
 * The most a push's JSON may take: push services accept 4,096 bytes of body, of which aes128gcm's header (86), its
 * delimiter (1) and its tag (16) take 103.
 */
export const PUSH_PAYLOAD_MAX_BYTES = 4096 - 103;

/**
 * A push the service refused for a reason a retry will not mend (400, 401, 403, 413...): `permanent`. A retry may
 * mend anything else sendPush throws (an OutboundError, 429, 5xx).
 */
export class PushError extends Error {
  override readonly name = 'PushError';
  constructor(
    message: string,
    readonly status: number,
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

const vapidKeysByConfig = new WeakMap<AppConfig, VapidKeys>();

/**
 * The app's VAPID key pair: the environment's, or the pair in DATA_DIR/vapid-keys.json, created on first use (the push
 * routes ask for it when the app is built, so a new DATA_DIR gets its keys at start).
 */
export function vapidKeysOf(app: FastifyInstance): VapidKeys {
  const { config } = app;
  let keys = vapidKeysByConfig.get(config);
  if (!keys) {
    keys = config.push.vapidKeys ?? readOrCreateVapidKeys(config.dataDir);
    vapidKeysByConfig.set(config, keys);
  }
  return keys;
}

function cut(text: string, max: number): string {
  const points = [...text];
  return points.length <= max ? text : `${points.slice(0, max - 1).join('')}…`;
}

async function removeGone(app: FastifyInstance, subscription: PushSubscriptionRow, why: number | 'expired') {
  // The row is the endpoint (one per browser): renewed meanwhile with new keys, it is still the browser that is gone.
  await app.db.deleteFrom('pushSubscriptions').where('id', '=', subscription.id).execute();
  app.log.info({ subscription: subscription.id, why }, 'push subscription gone; removed');
}

/**
 * Sends one payload to one stored subscription. Resolves 'sent', or 'gone' when the push service answers 404 or 410
 * (the browser unsubscribed or the subscription expired: the row is deleted). Throws on a transient failure (5xx,
 * 429, timeout, unreachable, refused address) so a job retries it, and a PushError with `permanent` for an answer a
 * retry will not change.
 */
export async function sendPush(
  app: FastifyInstance,
  subscription: PushSubscriptionRow,
  payload: PushPayload,
  options: SendPushOptions,
): Promise<'sent' | 'gone'> {
  // The service worker opens it on a click: a path of this app only, never another site.
  if (!/^\/(?![/\\])/.test(payload.url) || payload.url.includes('\\')) {
    throw new Error(`A push's url must be a path of the app, not ${JSON.stringify(payload.url)}`);
  }
  if (subscription.expirationTime !== null && Number(subscription.expirationTime) <= app.now()) {
    // The browser said when it would end: past it the push service would answer 410 anyway.
    await removeGone(app, subscription, 'expired');
    return 'gone';
  }
  const { publicKey, privateKey } = vapidKeysOf(app);
  const bounded: PushPayload = {
    ...payload,
    title: cut(payload.title, PUSH_TITLE_MAX),
    body: cut(payload.body, PUSH_BODY_MAX),
  };
  const json = JSON.stringify(bounded);
  if (Buffer.byteLength(json) > PUSH_PAYLOAD_MAX_BYTES) {
    // Its url or tag is too long: a push service would refuse it (413) on every try.
    throw new Error(`A push's JSON must fit in ${PUSH_PAYLOAD_MAX_BYTES} bytes`);
  }
  const details = webPush().generateRequestDetails(
    { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
    json,
    {
      vapidDetails: { subject: app.config.push.vapidSubject, publicKey, privateKey },
      TTL: options.ttlSeconds,
      contentEncoding: 'aes128gcm',
      urgency: options.urgency ?? 'normal',
      ...(options.topic ? { topic: options.topic } : {}),
    },
  );
  const headers = Object.fromEntries(
    Object.entries(details.headers).map(([name, value]) => [name.toLowerCase(), String(value)]),
  );
  const answer = await postPush(details.endpoint, headers, details.body as Buffer, {
    allowPrivateHosts: app.config.subscriptions.allowPrivateHosts,
  });
  const { status } = answer;
  if (status >= 200 && status <= 299) return 'sent';
  if (status === 404 || status === 410) {
    await removeGone(app, subscription, status);
    return 'gone';
  }
  const transient = status === 429 || status >= 500;
  throw new PushError(
    `The push service answered ${status}${answer.text ? `: ${answer.text.slice(0, 200)}` : ''}`,
    status,
    !transient,
  );
}

/** The person's subscriptions, newest first (at most MAX_DEVICES_PER_ACCOUNT). */
export async function subscriptionsOf(app: FastifyInstance, userId: string): Promise<PushSubscriptionRow[]> {
  return app.db
    .selectFrom('pushSubscriptions')
    .selectAll()
    .where('userId', '=', userId)
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(MAX_DEVICES_PER_ACCOUNT)
    .execute();
}

export interface NewPushSubscription {
  endpoint: string;
  expirationTime: number | null;
  p256dh: string;
  auth: string;
  device: string;
}

const tooManyDevices = () =>
  new HttpError(
    409,
    `This account already has ${MAX_DEVICES_PER_ACCOUNT} devices receiving notifications; remove one to add this one`,
  );

/**
 * Stores a browser's subscription for the person. The same endpoint posted again (by anyone) updates its row, which
 * moves to this person: an endpoint is one browser, and whoever subscribed it last receives its pushes.
 */
export async function saveSubscription(
  app: FastifyInstance,
  userId: string,
  input: NewPushSubscription,
): Promise<PushSubscriptionRow> {
  const now = app.now();
  const write = () =>
    app.db.transaction().execute(async (trx) => {
      // On PostgreSQL the person's row is locked first, so devices added at once are counted one after another and
      // cannot pass the bound together; SQLite has one writer at a time.
      if (trx.getExecutor().adapter instanceof PostgresAdapter) {
        await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
      }
      const existing = await trx
        .selectFrom('pushSubscriptions')
        .selectAll()
        .where('endpoint', '=', input.endpoint)
        .executeTakeFirst();
      if (!existing || existing.userId !== userId) {
        const { count } = await trx
          .selectFrom('pushSubscriptions')
          .select((eb) => eb.fn.countAll<number | string>().as('count'))
          .where('userId', '=', userId)
          .executeTakeFirstOrThrow();
        if (Number(count) >= MAX_DEVICES_PER_ACCOUNT) throw tooManyDevices();
      }
      const fields = { ...input, userId, updatedAt: now };
      if (existing) {
        await trx.updateTable('pushSubscriptions').set(fields).where('id', '=', existing.id).execute();
        return { ...existing, ...fields };
      }
      const row: PushSubscriptionRow = { id: newId(), ...fields, createdAt: now };
      await trx.insertInto('pushSubscriptions').values(row).execute();
      return row;
    });
  try {
    return await write();
  } catch (error) {
    // The same browser posted twice at once: the second insert lost the race, and updates the first's row instead.
    if (isUniqueViolation(error)) return write();
    throw error;
  }
}

/** Removes one of the person's subscriptions; false when it is not theirs or does not exist. */
export async function removeSubscription(app: FastifyInstance, userId: string, id: string): Promise<boolean> {
  const result = await app.db
    .deleteFrom('pushSubscriptions')
    .where('id', '=', id)
    .where('userId', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The test notification POST /push/test sends to each device. */
export const TEST_PAYLOAD: PushPayload = {
  kind: 'test',
  title: 'Time Wallet',
  body: 'Notifications reach this device.',
  url: '/app/today',
  tag: 'test',
};

/**
 * The job that sends the test notification to one device: a transient failure throws, and the job engine retries
 * it; a permanent one is logged and dropped (retrying would be refused the same way).
 */
export function handleTestPushes(app: FastifyInstance): void {
  app.jobs.handle<{ subscriptionId: string }>(TEST_PUSH_JOB, async ({ subscriptionId }) => {
    const subscription = await app.db
      .selectFrom('pushSubscriptions')
      .selectAll()
      .where('id', '=', subscriptionId)
      .executeTakeFirst();
    if (!subscription) return;
    try {
      await sendPush(app, subscription, TEST_PAYLOAD, { ttlSeconds: 60, urgency: 'normal', topic: 'test' });
    } catch (error) {
      if (error instanceof PushError && error.permanent) {
        app.log.warn({ err: error, subscription: subscriptionId }, 'test push refused by the push service');
        return;
      }
      throw error;
    }
  });
}

/** Sends the test notification to each of the person's devices, through the job engine; how many there are. */
export async function sendTestPushes(app: FastifyInstance, userId: string): Promise<number> {
  const subscriptions = await subscriptionsOf(app, userId);
  if (subscriptions.length === 0) {
    throw new HttpError(
      409,
      'There is no device to send to: allow notifications on this device first, then send a test',
    );
  }
  for (const { id } of subscriptions) await app.jobs.send(TEST_PUSH_JOB, { subscriptionId: id }, { key: id });
  return subscriptions.length;
}

/** The person's reminder settings: their row, or the defaults when they never changed them. */
export async function notificationSettingsOf(
  app: FastifyInstance,
  userId: string,
): Promise<NotificationSettings> {
  const row = await app.db
    .selectFrom('notificationSettings')
    .selectAll()
    .where('userId', '=', userId)
    .executeTakeFirst();
  return toNotificationSettingsJson(row);
}

/** Changes some of the person's reminder settings (a row is written the first time) and answers them all. */
export async function updateNotificationSettings(
  app: FastifyInstance,
  userId: string,
  changes: Partial<NotificationSettings>,
): Promise<NotificationSettings> {
  return app.db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('notificationSettings')
      .selectAll()
      .where('userId', '=', userId)
      .executeTakeFirst();
    const settings = { ...toNotificationSettingsJson(row), ...changes };
    const values = {
      eventReminderMinutes: settings.eventReminderMinutes,
      taskStart: settings.taskStart ? 1 : 0,
      timerAlerts: settings.timerAlerts ? 1 : 0,
      planDayAt: settings.planDayAt,
      updatedAt: app.now(),
    };
    await trx
      .insertInto('notificationSettings')
      .values({ userId, ...values })
      .onConflict((conflict) => conflict.column('userId').doUpdateSet(values))
      .execute();
    return settings;
  });
}
