import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { notFound } from '../../lib/http-errors.js';
import { feedChunks } from '../../lib/ics/export.js';
import { ownCalendarId } from '../../plugins/app/calendars-repository.js';
import { exportableEventPages, feedTaskPages } from '../../services/ics-export.js';
import { feedTokenHash } from '../calendars/index.js';

/** A feed's file name: its 256-bit token (base64url) and the extension calendar apps look for. */
const FEED_FILE = /^([A-Za-z0-9_-]{43})\.ics$/;
/** Reads per minute from one address: a calendar app polls a few times an hour; guessing tokens gets nowhere. */
const FEED_READS_PER_MINUTE = 30;

/**
 * The private feed (GET /api/feed/{token}.ics): no session, the secret address is the key. The own calendar's events
 * and the scheduled tasks, as one VCALENDAR whose bytes change only when the data does (ETag, 304). An unknown,
 * regenerated or revoked token answers the same 404 as any missing page.
 */
const feedRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/:file',
    {
      config: { public: true, rateLimit: { max: FEED_READS_PER_MINUTE, timeWindow: 60_000 } },
      schema: {
        tags: ['calendars'],
        summary: 'The private feed of a published plan (POST /calendars/feed gives its address)',
        params: Type.Object({ file: Type.String({ maxLength: 100 }) }),
        produces: ['text/calendar'],
        response: { 200: Type.String({ description: 'text/calendar' }), 304: { type: 'null' } },
      },
    },
    async (request, reply) => {
      const token = FEED_FILE.exec(request.params.file)?.[1];
      if (!token) throw notFound('Not found');
      const hash = feedTokenHash(token);
      const calendar = await app.calendarsRepository.findByFeedHash(hash);
      // Found by its hash's index, then compared in constant time, as a session token is.
      if (
        !calendar?.feedTokenHash ||
        !timingSafeEqual(Buffer.from(calendar.feedTokenHash, 'hex'), Buffer.from(hash, 'hex'))
      ) {
        throw notFound('Not found');
      }
      const user = await app.usersRepository.findById(calendar.userId);
      if (!user) throw notFound('Not found');
      let text = '';
      for await (const chunk of feedChunks({
        name: `${calendar.name} (Time Wallet)`,
        timeZone: user.timeZone,
        events: exportableEventPages(app, user.id, { calendarId: ownCalendarId(user.id) }),
        tasks: feedTaskPages(app, user.id),
      })) {
        text += chunk;
      }
      const etag = `"${createHash('sha256').update(text).digest('base64url')}"`;
      reply.header('etag', etag).header('cache-control', 'private, max-age=300');
      const asked = request.headers['if-none-match'];
      if (asked && asked.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) {
        return reply.code(304).send();
      }
      return reply.type('text/calendar; charset=utf-8').send(text);
    },
  );
};

export default feedRoutes;
