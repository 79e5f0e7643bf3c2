import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { signedInUser } from '../../../../plugins/app/authentication.js';
import { bearerAuth, errorResponses } from '../../../../schemas/common.js';
import { NotificationSettings, UpdateNotificationSettingsBody } from '../../../../schemas/notifications.js';
import { notificationSettingsOf, updateNotificationSettings } from '../../../../services/push.js';

/** /users/me/notifications: which reminders the person receives (delivered by Web Push, see routes/push). */
const notificationSettingsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['users'];

  app.get(
    '/',
    {
      schema: {
        tags,
        summary: 'Which reminders the signed-in user receives',
        description:
          'Defaults until changed: event reminders 10 minutes before, task starts and timer alerts on, no plan-your-day nudge.',
        security: bearerAuth,
        response: { 200: NotificationSettings },
      },
    },
    async (request) => notificationSettingsOf(app, signedInUser(request).id),
  );

  app.patch(
    '/',
    {
      schema: {
        tags,
        summary: 'Change any of the reminder settings; answers all of them',
        security: bearerAuth,
        body: UpdateNotificationSettingsBody,
        response: { 200: NotificationSettings, ...errorResponses(400) },
      },
    },
    async (request) => updateNotificationSettings(app, signedInUser(request).id, request.body),
  );
};

export default notificationSettingsRoutes;
