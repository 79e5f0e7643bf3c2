import { ECDH } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { notFound } from '../../lib/http-errors.js';
import { fieldError } from '../../lib/input-rules.js';
import { pushEndpointProblem } from '../../lib/outbound/push-request.js';
import { signedInUser } from '../../plugins/app/authentication.js';
import { IdParams, NoBody, bearerAuth, errorResponses } from '../../schemas/common.js';
import {
  PushDevice,
  PushDeviceList,
  PushKey,
  SubscribePushBody,
  TestPushResult,
  toPushDeviceJson,
} from '../../schemas/push.js';
import {
  MAX_DEVICES_PER_ACCOUNT,
  handleTestPushes,
  removeSubscription,
  saveSubscription,
  sendTestPushes,
  subscriptionsOf,
  vapidKeysOf,
} from '../../services/push.js';

const DEVICE_NOT_FOUND = 'Device not found';

/** The browser's P-256 public key: 65 bytes, a point on the curve (uncompressed), or null. */
function p256dhKey(text: string): string | null {
  const bytes = Buffer.from(text, 'base64url');
  if (bytes.length !== 65 || bytes[0] !== 4) return null;
  try {
    ECDH.convertKey(bytes, 'prime256v1');
  } catch {
    return null;
  }
  return bytes.toString('base64url');
}

/** The authentication secret: 16 bytes, or null. */
function authSecret(text: string): string | null {
  const bytes = Buffer.from(text, 'base64url');
  return bytes.length === 16 ? bytes.toString('base64url') : null;
}

/** Web Push: the devices that receive the person's reminders (settings: /users/me/notifications). */
const pushRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['push'];
  handleTestPushes(app);
  // Made now when DATA_DIR has none: at start, not on the first subscription.
  const { publicKey } = vapidKeysOf(app);

  app.get(
    '/key',
    {
      schema: {
        tags,
        summary: 'The VAPID public key a browser subscribes with (applicationServerKey)',
        security: bearerAuth,
        response: { 200: PushKey },
      },
    },
    async () => ({ publicKey }),
  );

  app.get(
    '/subscriptions',
    {
      schema: {
        tags,
        summary: "The signed-in user's devices that receive notifications, newest first",
        security: bearerAuth,
        response: { 200: PushDeviceList },
      },
    },
    async (request) => ({
      subscriptions: (await subscriptionsOf(app, signedInUser(request).id)).map(toPushDeviceJson),
    }),
  );

  app.post(
    '/subscriptions',
    {
      schema: {
        tags,
        summary: "Subscribe this browser to the user's notifications",
        description: `subscription is the browser's PushSubscription.toJSON(). Posting an endpoint that is already stored updates it (and moves it to this account): one browser, one row. The endpoint must be https and, as calendar subscriptions, must not point to a loopback, private or link-local address (unless SUBSCRIPTIONS_ALLOW_PRIVATE_HOSTS). At most ${MAX_DEVICES_PER_ACCOUNT} devices per account (409).`,
        security: bearerAuth,
        body: SubscribePushBody,
        response: { 201: PushDevice, ...errorResponses(400, 409) },
      },
    },
    async (request, reply) => {
      const user = signedInUser(request);
      const { subscription } = request.body;
      const device = request.body.device.trim();
      if (device === '') throw fieldError('device', 'device must name the device, e.g. "Phone, Chrome"');
      const problem = pushEndpointProblem(subscription.endpoint, app.config.subscriptions.allowPrivateHosts);
      if (problem !== null) throw fieldError('subscription.endpoint', problem);
      const p256dh = p256dhKey(subscription.keys.p256dh);
      if (p256dh === null) {
        throw fieldError(
          'subscription.keys.p256dh',
          'subscription.keys.p256dh must be an uncompressed P-256 public key (65 bytes) in base64url',
        );
      }
      const auth = authSecret(subscription.keys.auth);
      if (auth === null) {
        throw fieldError('subscription.keys.auth', 'subscription.keys.auth must be 16 bytes in base64url');
      }
      const expirationTime = subscription.expirationTime ?? null;
      const row = await saveSubscription(app, user.id, {
        endpoint: subscription.endpoint,
        expirationTime: expirationTime === null ? null : Math.trunc(expirationTime),
        p256dh,
        auth,
        device,
      });
      return reply.code(201).send(toPushDeviceJson(row));
    },
  );

  app.delete(
    '/subscriptions/:id',
    {
      config: { notFoundMessage: DEVICE_NOT_FOUND },
      schema: {
        tags,
        summary: 'Stop sending notifications to one of the user’s devices',
        security: bearerAuth,
        params: IdParams,
        body: NoBody,
        response: { 204: { type: 'null' }, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const user = signedInUser(request);
      if (!(await removeSubscription(app, user.id, request.params.id))) throw notFound(DEVICE_NOT_FOUND);
      return reply.code(204).send();
    },
  );

  app.post(
    '/test',
    {
      schema: {
        tags,
        summary: "Send a test notification to each of the user's devices",
        description:
          'Answers 202 at once; the notifications go out in the background. 409 when no device is subscribed.',
        security: bearerAuth,
        body: NoBody,
        response: { 202: TestPushResult, ...errorResponses(409) },
      },
    },
    async (request, reply) => {
      const devices = await sendTestPushes(app, signedInUser(request).id);
      return reply.code(202).send({ devices });
    },
  );
};

export default pushRoutes;
