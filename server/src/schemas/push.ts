import { Type, type Static } from '@sinclair/typebox';
import type { PushSubscriptionRow } from '../db/schema.js';
import { MAX_URL_LENGTH } from '../lib/outbound/fetch-calendar.js';

export const DEVICE_LABEL_MAX_LENGTH = 100;
const BASE64URL_RULE = {
  pattern: '^[A-Za-z0-9_-]+={0,2}$',
  errorMessage: 'must be base64url text',
};

export const PushKey = Type.Object({
  publicKey: Type.String({
    description: "The VAPID application server key (base64url): PushManager.subscribe's applicationServerKey",
  }),
});

/** The browser's PushSubscription.toJSON(). */
export const BrowserPushSubscription = Type.Object(
  {
    endpoint: Type.String({
      minLength: 1,
      maxLength: MAX_URL_LENGTH,
      description: "The push service's https address for this browser",
    }),
    expirationTime: Type.Optional(
      Type.Union(
        [
          // The latest instant a JavaScript Date holds: anything past it is not a time a browser gave.
          Type.Number({ minimum: 0, maximum: 8.64e15, errorMessage: 'must be epoch milliseconds, or null' }),
          Type.Null(),
        ],
        {
          description: 'When the subscription ends, in epoch milliseconds; null when it does not',
          errorMessage: 'must be epoch milliseconds, or null',
        },
      ),
    ),
    keys: Type.Object(
      {
        p256dh: Type.String({
          ...BASE64URL_RULE,
          maxLength: 200,
          description: "The browser's P-256 public key, uncompressed (65 bytes), base64url",
        }),
        auth: Type.String({
          ...BASE64URL_RULE,
          maxLength: 100,
          description: 'The 16-byte authentication secret, base64url',
        }),
      },
      { additionalProperties: false },
    ),
  },
  // Browsers may add fields to toJSON() in future; they are not stored.
  { additionalProperties: true },
);

export const SubscribePushBody = Type.Object(
  {
    subscription: BrowserPushSubscription,
    device: Type.String({
      minLength: 1,
      maxLength: DEVICE_LABEL_MAX_LENGTH,
      description: "A label the person knows the device by, e.g. 'Pixel 8, Chrome'",
    }),
  },
  { additionalProperties: false },
);
export type SubscribePushBody = Static<typeof SubscribePushBody>;

export const PushDevice = Type.Object({
  id: Type.String(),
  device: Type.String(),
  createdAt: Type.String({ description: 'ISO UTC date-time the device first subscribed' }),
});
export type PushDevice = Static<typeof PushDevice>;

export const PushDeviceList = Type.Object({ subscriptions: Type.Array(PushDevice) });

export const TestPushResult = Type.Object({
  devices: Type.Integer({ description: 'Devices a test notification is on its way to' }),
});

export function toPushDeviceJson(row: PushSubscriptionRow): PushDevice {
  return { id: row.id, device: row.device, createdAt: new Date(Number(row.createdAt)).toISOString() };
}
