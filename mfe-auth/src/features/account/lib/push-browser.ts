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

/** How long to wait for the service worker before saying it is not running. */
const WORKER_WAIT_MS = 10_000;

export class PushSetupError extends Error {}

async function registration(): Promise<ServiceWorkerRegistration> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new PushSetupError(
            'Time Wallet’s service worker is not running in this browser yet. Reload the page and try again.',
          ),
        ),
      WORKER_WAIT_MS,
    );
  });
  try {
    return await Promise.race([navigator.serviceWorker.ready, late]);
  } finally {
    clearTimeout(timer);
  }
}

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
  const subscription = await pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  return subscription.toJSON();
}

/** Stops this browser's push subscription, if it has one; never waits for a service worker that is not there. */
export async function unsubscribeThisBrowser(): Promise<void> {
  if (!pushSupported()) return;
  const registered = await navigator.serviceWorker.getRegistration();
  const subscription = await registered?.pushManager.getSubscription();
  await subscription?.unsubscribe();
}
