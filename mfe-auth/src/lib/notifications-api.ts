import { api, type BodyOf, type ResponseOf } from '@time-wallet/api';

/** Which reminders the person receives (GET/PATCH /users/me/notifications). */
export type NotificationSettings = ResponseOf<'/api/users/me/notifications/', 'get'>;
export type NotificationSettingsChange = BodyOf<'/api/users/me/notifications/', 'patch'>;
/** One browser that receives the person's notifications, as GET /push/subscriptions lists it. */
export type PushDevice = ResponseOf<'/api/push/subscriptions', 'get'>['subscriptions'][number];
export type NewPushDevice = BodyOf<'/api/push/subscriptions', 'post'>;
export type TestPushResult = ResponseOf<'/api/push/test', 'post'>;

const isDevice = (value: unknown): value is PushDevice =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { id?: unknown }).id === 'string' &&
  typeof (value as { device?: unknown }).device === 'string';

/**
 * The account page's Notifications section. Injected here, in mfe-auth, like the sessions' endpoints: the shell never
 * calls them, so they stay out of every other page's first download.
 */
export const notificationsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getNotificationSettings: build.query<NotificationSettings, void>({
      query: () => '/users/me/notifications',
    }),
    // Shown at once; the server's answer (all the settings) replaces it, and a failure puts the old value back.
    updateNotificationSettings: build.mutation<NotificationSettings, NotificationSettingsChange>({
      query: (change) => ({ url: '/users/me/notifications', method: 'PATCH', body: change }),
      async onQueryStarted(change, { dispatch, queryFulfilled }): Promise<void> {
        const shown = dispatch(
          notificationsApi.util.updateQueryData('getNotificationSettings', undefined, (settings) => {
            Object.assign(settings, change);
          }),
        );
        try {
          const { data } = await queryFulfilled;
          dispatch(notificationsApi.util.upsertQueryData('getNotificationSettings', undefined, data));
        } catch {
          shown.undo();
        }
      },
    }),
    getPushKey: build.query<string, void>({
      query: () => '/push/key',
      transformResponse: (response: ResponseOf<'/api/push/key', 'get'>) => response.publicKey,
    }),
    getPushDevices: build.query<PushDevice[], void>({
      query: () => '/push/subscriptions',
      transformResponse: (response: ResponseOf<'/api/push/subscriptions', 'get'> | null) =>
        Array.isArray(response?.subscriptions) ? response.subscriptions.filter(isDevice) : [],
      // Another device may subscribe or be removed at any time: the list is read fresh on every visit.
      keepUnusedDataFor: 0,
    }),
    addPushDevice: build.mutation<PushDevice, NewPushDevice>({
      query: (body) => ({ url: '/push/subscriptions', method: 'POST', body }),
      async onQueryStarted(_body, { dispatch, queryFulfilled }): Promise<void> {
        try {
          const { data } = await queryFulfilled;
          // One browser is one row: posting it again answers the same id.
          dispatch(
            notificationsApi.util.updateQueryData('getPushDevices', undefined, (devices) => [
              data,
              ...devices.filter((device) => device.id !== data.id),
            ]),
          );
        } catch {
          // The caller says why.
        }
      },
    }),
    // Gone from the list on success and on a 404 (already removed elsewhere).
    removePushDevice: build.mutation<void, string>({
      query: (id) => ({ url: `/push/subscriptions/${encodeURIComponent(id)}`, method: 'DELETE' }),
      async onQueryStarted(id, { dispatch, queryFulfilled }): Promise<void> {
        const drop = () =>
          dispatch(
            notificationsApi.util.updateQueryData('getPushDevices', undefined, (devices) =>
              devices.filter((device) => device.id !== id),
            ),
          );
        try {
          await queryFulfilled;
          drop();
        } catch (failure) {
          const status = (failure as { error?: { status?: unknown } }).error?.status;
          if (status === 404) drop();
        }
      },
    }),
    sendTestPush: build.mutation<TestPushResult, void>({
      query: () => ({ url: '/push/test', method: 'POST', body: {} }),
    }),
  }),
});

export const {
  useGetNotificationSettingsQuery,
  useUpdateNotificationSettingsMutation,
  useLazyGetPushKeyQuery,
  useGetPushDevicesQuery,
  useAddPushDeviceMutation,
  useRemovePushDeviceMutation,
  useSendTestPushMutation,
} = notificationsApi;
