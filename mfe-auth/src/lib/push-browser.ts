import { readItem, removeItem, writeItem } from '@time-wallet/api';

/** Where notifications stand on this browser: no Web Push at all, or the Notification permission. */
export type PushPermission = 'unsupported' | NotificationPermission;

/**
 * Web Push needs a service worker, PushManager and notifications. iOS Safari has them only in an app added to the
 * home screen; a browser without them gets a sentence, not a button that cannot work.
 */
export function pushSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window
  );
}

export function pushPermission(): PushPermission {
  return pushSupported() ? Notification.permission : 'unsupported';
}

/** Asks the browser's permission; call it only from a click (browsers refuse or penalise a prompt on load). */
export async function askPermission(): Promise<PushPermission> {
  if (!pushSupported()) return 'unsupported';
  return Notification.requestPermission();
}

/** The id POST /push/subscriptions answered for this browser: the device list has no endpoints to compare. */
const THIS_DEVICE_KEY = 'push-device-id';

export const thisDeviceId = (): string | null => readItem(THIS_DEVICE_KEY);
export const rememberThisDevice = (id: string): void => writeItem(THIS_DEVICE_KEY, id);
export const forgetThisDevice = (): void => removeItem(THIS_DEVICE_KEY);

/** How long to wait for the service worker, and then for the browser's push service, before saying so. */
const WORKER_WAIT_MS = 10_000;
const PUSH_SERVICE_WAIT_MS = 20_000;

export class PushSetupError extends Error {}

/** The promise's value, or a PushSetupError with `message` once `ms` have passed (a browser may wait forever). */
async function withinTime<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new PushSetupError(message)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

const registration = () =>
  withinTime(
    navigator.serviceWorker.ready,
    WORKER_WAIT_MS,
    'Time Wallet’s service worker is not running in this browser yet. Reload the page and try again.',
  );

/** The VAPID key as the bytes PushManager.subscribe takes (every browser takes bytes; not all take the text). */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const text = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(text.length));
  for (let index = 0; index < text.length; index += 1) bytes[index] = text.charCodeAt(index);
  return bytes;
}

const sameBytes = (a: ArrayBuffer | null, b: Uint8Array) =>
  a !== null && a.byteLength === b.byteLength && new Uint8Array(a).every((byte, index) => byte === b[index]);

/**
 * This browser's push subscription for the server's key: the one it has, or a new one. A subscription made for
 * another key (the server's keys were replaced) is dropped first, as the browser would refuse a second.
 */
export async function subscribeThisBrowser(publicKey: string): Promise<PushSubscriptionJSON> {
  const pushManager = (await registration()).pushManager;
  const key = keyBytes(publicKey);
  const existing = await pushManager.getSubscription();
  if (existing && sameBytes(existing.options.applicationServerKey, key)) return existing.toJSON();
  await existing?.unsubscribe();
  const subscription = await withinTime(
    pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }),
    PUSH_SERVICE_WAIT_MS,
    'This browser’s push service did not answer, so this device could not be added. Check your connection and try again.',
  );
  return subscription.toJSON();
}

/** Stops this browser's push subscription, if it has one; never waits for a service worker that is not there. */
export async function unsubscribeThisBrowser(): Promise<void> {
  if (!pushSupported()) return;
  const registered = await navigator.serviceWorker.getRegistration();
  const subscription = await registered?.pushManager.getSubscription();
  await subscription?.unsubscribe();
}
