import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import {
  deferred,
  mockApi,
  NETWORK_FAILURE,
  renderPage,
  resetTestEnvironment,
  signedInStore,
  type MockHandler,
} from '@time-wallet/api/testing';
import { NotificationsCard } from './notifications-card';

const user = userEvent.setup({ delay: null });

const CHROME_ON_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
/** The VAPID key as the server sends it (base64url) and the bytes the browser must get: 0xfb 0xff 0xbf. */
const PUBLIC_KEY = '-_-_';
const KEY_BYTES = [0xfb, 0xff, 0xbf];
const ENDPOINT = 'https://push.example.com/send/abc';
const KEYS = { p256dh: 'BPublicKey', auth: 'AuthSecret' };

const DEFAULTS = { eventReminderMinutes: 10, taskStart: true, timerAlerts: true, planDayAt: null };
const LAPTOP = { id: 'd-laptop', device: 'Chrome on Linux', createdAt: '2026-11-20T08:00:00.000Z' };
const PHONE = { id: 'd-phone', device: 'Safari on iOS', createdAt: '2026-11-21T09:30:00.000Z' };

type Permission = 'default' | 'granted' | 'denied';

/**
 * The browser's side of Web Push as globals: Notification (its permission and prompt), PushManager and a service
 * worker registration whose pushManager keeps one subscription.
 */
function installPushBrowser({
  permission = 'default',
  answer = 'granted',
  pushServiceAnswers = true,
}: { permission?: Permission; answer?: Permission; pushServiceAnswers?: boolean } = {}) {
  let current: {
    options: { applicationServerKey: ArrayBuffer | null };
    toJSON: () => unknown;
    unsubscribe: jest.Mock;
  } | null = null;
  const unsubscribe = jest.fn(async () => {
    current = null;
    return true;
  });
  const pushManager = {
    getSubscription: jest.fn(async () => current),
    subscribe: jest.fn(async (options: { userVisibleOnly: boolean; applicationServerKey: Uint8Array }) => {
      // Chromium without a reachable push service (Firebase Cloud Messaging) never settles.
      if (!pushServiceAnswers) await new Promise(() => {});
      current = {
        options: { applicationServerKey: options.applicationServerKey.buffer as ArrayBuffer },
        toJSON: () => ({ endpoint: ENDPOINT, expirationTime: null, keys: KEYS }),
        unsubscribe,
      };
      return current;
    }),
  };
  const registration = { pushManager };
  const notification = {
    permission,
    requestPermission: jest.fn(async () => {
      notification.permission = answer;
      return answer;
    }),
  };
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { ready: Promise.resolve(registration), getRegistration: async () => registration },
  });
  Object.defineProperty(window, 'Notification', { configurable: true, writable: true, value: notification });
  Object.defineProperty(window, 'PushManager', {
    configurable: true,
    writable: true,
    value: function PushManager() {},
  });
  return { pushManager, notification, unsubscribe };
}

function removePushBrowser() {
  for (const [owner, name] of [
    [navigator, 'serviceWorker'],
    [window, 'Notification'],
    [window, 'PushManager'],
  ] as const)
    delete (owner as unknown as Record<string, unknown>)[name];
}

/** The notification endpoints of the contract, remembering what was saved, added and removed. */
function pushServer({
  settings = DEFAULTS,
  devices = [] as (typeof LAPTOP)[],
  routes = {} as Record<string, MockHandler>,
} = {}) {
  let saved = { ...settings };
  let list = [...devices];
  return mockApi({
    'GET /users/me/notifications': () => ({ body: saved }),
    'PATCH /users/me/notifications': ({ body }) => {
      saved = { ...saved, ...(body as object) };
      return { body: saved };
    },
    'GET /push/key': { body: { publicKey: PUBLIC_KEY } },
    'GET /push/subscriptions': () => ({ body: { subscriptions: list } }),
    'POST /push/subscriptions': () => {
      list = [LAPTOP, ...list];
      return { status: 201, body: LAPTOP };
    },
    ...Object.fromEntries(
      [LAPTOP, PHONE].map((device) => [
        `DELETE /push/subscriptions/${device.id}`,
        () => {
          list = list.filter((entry) => entry.id !== device.id);
          return { status: 204 };
        },
      ]),
    ),
    'POST /push/test': () => ({ status: 202, body: { devices: list.length } }),
    ...routes,
  });
}

const renderCard = () => renderPage(<NotificationsCard />, { path: '/app/account', store: signedInStore() });
const card = () => screen.getByRole('region', { name: 'Notifications' });
const inCard = () => within(card());
const deviceList = () => inCard().findByRole('list', { name: 'Devices that get reminders' });
const rowOf = async (name: string) =>
  (await within(await deviceList()).findByText(name)).closest('li') as HTMLElement;

describe('NotificationsCard', () => {
  beforeEach(() => {
    resetTestEnvironment();
    jest.spyOn(navigator, 'userAgent', 'get').mockReturnValue(CHROME_ON_LINUX);
  });
  afterEach(() => {
    jest.useRealTimers();
    act(() => toast.remove());
    removePushBrowser();
    jest.restoreAllMocks();
  });

  describe('this browser', () => {
    it('says notifications are not asked for yet, and never asks on its own', async () => {
      const browser = installPushBrowser();
      pushServer();
      renderCard();

      expect(await inCard().findByText('Not asked yet')).toBeInTheDocument();
      expect(inCard().getByRole('button', { name: 'Turn on notifications' })).toBeEnabled();
      await inCard().findByText('No device gets your reminders yet.');
      expect(browser.notification.requestPermission).not.toHaveBeenCalled();
      expect(browser.pushManager.subscribe).not.toHaveBeenCalled();
    });

    it('asks on a click, subscribes with the server key and posts the subscription with a device name', async () => {
      const browser = installPushBrowser();
      const server = pushServer();
      renderCard();

      await user.click(await inCard().findByRole('button', { name: 'Turn on notifications' }));

      expect(await inCard().findByText('This device gets your reminders.')).toBeInTheDocument();
      expect(inCard().getByText('Allowed')).toBeInTheDocument();
      expect(browser.notification.requestPermission).toHaveBeenCalledTimes(1);
      const [options] = browser.pushManager.subscribe.mock.calls[0]!;
      expect(options.userVisibleOnly).toBe(true);
      expect([...options.applicationServerKey]).toEqual(KEY_BYTES);
      expect(server.requestsTo('POST', '/push/subscriptions').map((request) => request.body)).toEqual([
        {
          subscription: { endpoint: ENDPOINT, expirationTime: null, keys: KEYS },
          device: 'Chrome on Linux',
        },
      ]);
      expect(within(await rowOf('Chrome on Linux')).getByText('This device')).toBeInTheDocument();
      expect(window.localStorage.getItem('push-device-id')).toBe(LAPTOP.id);
    });

    it('offers no button for a subscribed browser while the device list is still on its way', async () => {
      installPushBrowser({ permission: 'granted' });
      window.localStorage.setItem('push-device-id', LAPTOP.id);
      const list = deferred<{ body: { subscriptions: (typeof LAPTOP)[] } }>();
      pushServer({ routes: { 'GET /push/subscriptions': () => list.promise } });
      renderCard();

      expect(await inCard().findByText('Allowed')).toBeInTheDocument();
      expect(
        inCard().queryByRole('button', { name: 'Get reminders on this device' }),
      ).not.toBeInTheDocument();
      list.resolve({ body: { subscriptions: [LAPTOP] } });
      expect(await inCard().findByText('This device gets your reminders.')).toBeInTheDocument();
    });

    it('subscribes without asking again when notifications are already allowed', async () => {
      const browser = installPushBrowser({ permission: 'granted' });
      pushServer();
      renderCard();

      expect(await inCard().findByText('Allowed')).toBeInTheDocument();
      await user.click(inCard().getByRole('button', { name: 'Get reminders on this device' }));

      await inCard().findByText('This device gets your reminders.');
      expect(browser.notification.requestPermission).not.toHaveBeenCalled();
      expect(browser.pushManager.subscribe).toHaveBeenCalledTimes(1);
    });

    it('subscribes nothing when the prompt is refused, and says where to allow it', async () => {
      const browser = installPushBrowser({ answer: 'denied' });
      const server = pushServer();
      renderCard();

      await user.click(await inCard().findByRole('button', { name: 'Turn on notifications' }));

      expect(await inCard().findByText('Blocked in the browser’s settings')).toBeInTheDocument();
      expect(
        inCard().getByText(/allow notifications for this site in the browser’s site settings/),
      ).toBeInTheDocument();
      expect(inCard().queryByRole('button', { name: /Turn on|Get reminders/ })).not.toBeInTheDocument();
      expect(browser.pushManager.subscribe).not.toHaveBeenCalled();
      expect(server.requestsTo('POST', '/push/subscriptions')).toEqual([]);
    });

    it('shows a blocked permission with its hint and no button', async () => {
      installPushBrowser({ permission: 'denied' });
      pushServer();
      renderCard();

      expect(await inCard().findByText('Blocked in the browser’s settings')).toBeInTheDocument();
      expect(inCard().queryByRole('button', { name: /Turn on|Get reminders/ })).not.toBeInTheDocument();
    });

    it('says in words why the server refused the subscription', async () => {
      installPushBrowser({ permission: 'granted' });
      pushServer({
        routes: {
          'POST /push/subscriptions': { status: 409, body: { message: 'At most 20 devices get reminders.' } },
        },
      });
      renderCard();

      await user.click(await inCard().findByRole('button', { name: 'Get reminders on this device' }));

      expect(await inCard().findByRole('alert')).toHaveTextContent('At most 20 devices get reminders.');
      expect(window.localStorage.getItem('push-device-id')).toBeNull();
    });

    it('says so in words when the push service never answers, and adds nothing', async () => {
      jest.useFakeTimers();
      const clockUser = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
      installPushBrowser({ permission: 'granted', pushServiceAnswers: false });
      const server = pushServer();
      renderCard();

      await clockUser.click(await inCard().findByRole('button', { name: 'Get reminders on this device' }));
      await act(() => jest.advanceTimersByTimeAsync(20_000));

      expect(await inCard().findByRole('alert')).toHaveTextContent(
        'This browser’s push service did not answer',
      );
      expect(inCard().getByRole('button', { name: 'Get reminders on this device' })).toBeEnabled();
      expect(server.requestsTo('POST', '/push/subscriptions')).toEqual([]);
    });

    it("passes on the browser's own words when its push service refuses", async () => {
      const browser = installPushBrowser({ permission: 'granted' });
      browser.pushManager.subscribe.mockRejectedValueOnce(
        new DOMException('Registration failed - push service error', 'AbortError'),
      );
      pushServer();
      renderCard();

      await user.click(await inCard().findByRole('button', { name: 'Get reminders on this device' }));

      expect(await inCard().findByRole('alert')).toHaveTextContent(
        'This browser could not set up notifications: Registration failed - push service error. Please try again.',
      );
    });

    it('tells a browser without Web Push to install the app, instead of offering a button', async () => {
      pushServer();
      renderCard();

      expect(
        await inCard().findByText(/Install Time Wallet to your home screen to get reminders on this device/),
      ).toBeInTheDocument();
      expect(inCard().queryByRole('button', { name: /Turn on|Get reminders/ })).not.toBeInTheDocument();
    });
  });

  describe('settings', () => {
    it('shows the saved settings: reminders 10 minutes before, both switches on, no nudge', async () => {
      installPushBrowser();
      pushServer();
      renderCard();

      const reminders = await inCard().findByRole('combobox', { name: 'Event reminders' });
      expect(reminders).toHaveDisplayValue('10 minutes before');
      expect(
        within(reminders)
          .getAllByRole('option')
          .map((option) => option.textContent),
      ).toEqual([
        'Off',
        '5 minutes before',
        '10 minutes before',
        '15 minutes before',
        '30 minutes before',
        '60 minutes before',
      ]);
      expect(inCard().getByRole('switch', { name: 'When a task starts' })).toBeChecked();
      expect(
        inCard().getByRole('switch', { name: 'When a timer runs past its block or hits the 12-hour stop' }),
      ).toBeChecked();
      expect(inCard().getByRole('switch', { name: 'Plan-your-day nudge' })).not.toBeChecked();
      expect(inCard().queryByLabelText('Nudge at')).not.toBeInTheDocument();
    });

    it('saves each change at once with only that field', async () => {
      installPushBrowser();
      const server = pushServer();
      renderCard();

      await user.selectOptions(await inCard().findByRole('combobox', { name: 'Event reminders' }), 'Off');
      await user.click(inCard().getByRole('switch', { name: 'When a task starts' }));
      await user.click(inCard().getByRole('switch', { name: 'Plan-your-day nudge' }));
      const time = await inCard().findByLabelText('Nudge at');
      expect(time).toHaveValue('08:00');
      await user.clear(time);
      await user.type(time, '07:30');
      await user.tab();

      await waitFor(() =>
        expect(server.requestsTo('PATCH', '/users/me/notifications').map((request) => request.body)).toEqual([
          { eventReminderMinutes: null },
          { taskStart: false },
          { planDayAt: '08:00' },
          { planDayAt: '07:30' },
        ]),
      );
      expect(inCard().getByRole('combobox', { name: 'Event reminders' })).toHaveDisplayValue('Off');
      expect(inCard().getByRole('switch', { name: 'When a task starts' })).not.toBeChecked();
      expect(inCard().getByLabelText('Nudge at')).toHaveValue('07:30');
    });

    it('offers a lead time set elsewhere among the others', async () => {
      installPushBrowser();
      pushServer({ settings: { ...DEFAULTS, eventReminderMinutes: 20 } });
      renderCard();

      expect(await inCard().findByRole('combobox', { name: 'Event reminders' })).toHaveDisplayValue(
        '20 minutes before',
      );
    });

    it.each([
      [
        'the server refuses it',
        { status: 400, body: { message: 'planDayAt must be HH:MM' } },
        'planDayAt must be HH:MM',
      ],
      ['the network fails', NETWORK_FAILURE, /Network error/],
    ] as const)('puts a switch back and says so in a toast when %s', async (_case, reply, message) => {
      installPushBrowser();
      pushServer({ routes: { 'PATCH /users/me/notifications': reply as MockHandler } });
      renderCard();

      const taskStart = await inCard().findByRole('switch', { name: 'When a task starts' });
      await user.click(taskStart);

      expect(await screen.findByText(message)).toBeInTheDocument();
      await waitFor(() => expect(taskStart).toBeChecked());
    });
  });

  describe('devices', () => {
    it('lists the devices, marks this one, and sends a test notification to them all', async () => {
      installPushBrowser({ permission: 'granted' });
      window.localStorage.setItem('push-device-id', LAPTOP.id);
      const server = pushServer({ devices: [LAPTOP, PHONE] });
      renderCard();

      expect(within(await rowOf('Chrome on Linux')).getByText('This device')).toBeInTheDocument();
      expect(within(await rowOf('Safari on iOS')).queryByText('This device')).not.toBeInTheDocument();
      expect(inCard().getByText('This device gets your reminders.')).toBeInTheDocument();

      await user.click(inCard().getByRole('button', { name: 'Send a test notification' }));

      expect(await inCard().findByRole('status')).toHaveTextContent('Sent to 2 devices.');
      expect(server.requestsTo('POST', '/push/test')).toHaveLength(1);
    });

    it("shows the server's words when there is nothing to test", async () => {
      installPushBrowser();
      pushServer({
        routes: {
          'POST /push/test': { status: 409, body: { message: 'No device gets your notifications yet.' } },
        },
      });
      renderCard();

      await user.click(await inCard().findByRole('button', { name: 'Send a test notification' }));

      expect(await inCard().findByRole('status')).toHaveTextContent('No device gets your notifications yet.');
    });

    it('removes another device from the list and leaves this browser subscribed', async () => {
      const browser = installPushBrowser({ permission: 'granted' });
      window.localStorage.setItem('push-device-id', LAPTOP.id);
      const server = pushServer({ devices: [LAPTOP, PHONE] });
      renderCard();

      await user.click(within(await rowOf('Safari on iOS')).getByRole('button', { name: 'Remove' }));

      await waitFor(() => expect(inCard().queryByText('Safari on iOS')).not.toBeInTheDocument());
      expect(server.requestsTo('DELETE', `/push/subscriptions/${PHONE.id}`)).toHaveLength(1);
      expect(browser.unsubscribe).not.toHaveBeenCalled();
      expect(window.localStorage.getItem('push-device-id')).toBe(LAPTOP.id);
    });

    it('removing this device unsubscribes the browser too and offers to subscribe again', async () => {
      const browser = installPushBrowser({ permission: 'granted' });
      pushServer();
      renderCard();
      await user.click(await inCard().findByRole('button', { name: 'Get reminders on this device' }));

      await user.click(within(await rowOf('Chrome on Linux')).getByRole('button', { name: 'Remove' }));

      await inCard().findByText('No device gets your reminders yet.');
      await waitFor(() => expect(browser.unsubscribe).toHaveBeenCalledTimes(1));
      expect(window.localStorage.getItem('push-device-id')).toBeNull();
      expect(inCard().getByRole('button', { name: 'Get reminders on this device' })).toBeInTheDocument();
    });

    it('says so when the list cannot be read, and reads it again on Retry', async () => {
      installPushBrowser();
      let fail = true;
      pushServer({
        devices: [PHONE],
        routes: {
          'GET /push/subscriptions': () =>
            fail ? { status: 500, body: { message: 'Internal' } } : { body: { subscriptions: [PHONE] } },
        },
      });
      renderCard();

      expect(
        await inCard().findByText('The devices that get your reminders could not be loaded.'),
      ).toBeInTheDocument();
      fail = false;
      await user.click(inCard().getByRole('button', { name: /Retry|Try again/ }));
      expect(await rowOf('Safari on iOS')).toBeInTheDocument();
    });
  });
});
