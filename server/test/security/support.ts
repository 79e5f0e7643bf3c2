// The security suite's single description of the API: every endpoint, whether it needs a session, how to build a
// valid request for it and which kind of record its :id names. Each security test file walks this table, and
// routes.test.ts proves it equals what the app registers, so a new endpoint cannot escape the suite.
import assert from 'node:assert/strict';
import diagnostics from 'node:diagnostics_channel';
import { readdir, readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after } from 'node:test';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { decodeJwt } from 'jose';
import type { Database } from '../../src/db/schema.js';
import { buildTestApp, importAnswer, signUp, type SignedInUser, type TestApp } from '../helpers.js';
import { browserSubscription } from '../support/push-service.js';

export const NOW = Date.parse('2026-03-11T15:00:00.000Z');
export const DAY = '2026-03-11';
export const MISSING_ID = '00000000-0000-4000-8000-000000000000';

/**
 * calendar: a subscription. timeEntry: a manual entry of tracked time on the actor's task. pushDevice: a browser the
 * actor subscribed to reminders (its push service never sent to: background jobs are off). deleted*: a record the actor
 * deleted, waiting in the trash for POST .../restore.
 */
export type IdKind =
  | 'task'
  | 'event'
  | 'category'
  | 'session'
  | 'calendar'
  | 'timeEntry'
  | 'pushDevice'
  | 'deletedTask'
  | 'deletedEvent'
  | 'deletedCategory'
  | 'deletedCalendar'
  | 'deletedTimeEntry';
export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface Actor extends SignedInUser {
  /** Appears in every title and name this actor owns, so a leak is a substring search. */
  label: string;
  /** An event of the own calendar made by import, and one of the subscription (read-only). */
  ids: Record<IdKind, string> & { importedEvent: string; subscribedEvent: string };
  /** The address (on the calendar source) of a calendar named after the label: what its subscriptions fetch. */
  calendarUrl: string;
  /** The path of its published private feed, /api/feed/<token>.ics. */
  feed: string;
}

export interface RequestContext {
  actor: Actor;
  /** A fresh suffix for names that must not collide (usernames, e-mails, UIDs). */
  unique(): string;
  /** A live password-reset token for the actor (asks for one and reads it from the outbox). */
  resetToken(): Promise<string>;
}

export interface ValidRequest {
  /** The request's path when the route's parameter is not an :id (the feed's file name). */
  path?: string;
  body?: Record<string, unknown>;
  query?: Record<string, string>;
  /** Multipart upload of this .ics text in the field "file". */
  ics?: string;
}

export interface Endpoint {
  method: Method;
  /** The pattern exactly as Fastify registers it. */
  url: string;
  protected: boolean;
  /** What a JSON endpoint reads: 'json' a body object, 'none' no body at all, 'multipart' an upload. */
  body?: 'json' | 'none' | 'multipart';
  idKind?: IdKind;
  /** Body fields holding a calendar date (YYYY-MM-DD) or an ISO date-time, for the malformed-date cases. */
  dateFields?: string[];
  instantFields?: string[];
  valid(ctx: RequestContext): ValidRequest | Promise<ValidRequest>;
  /** Requests that are well-formed JSON of the right types but still wrong (end before start, ...). */
  invalid?: Array<{ name: string; request: ValidRequest | ((ctx: RequestContext) => ValidRequest) }>;
}

export const calendar = (events: string) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Security//EN', events.trim(), 'END:VCALENDAR', ''].join(
    '\r\n',
  );

export const vevent = (uid: string, lines: string) =>
  `BEGIN:VEVENT\r\nUID:${uid}\r\nDTSTAMP:20260301T000000Z\r\n${lines.trim()}\r\nEND:VEVENT`;

/** How the security app fetches subscriptions: private hosts allowed, because the calendar source is on 127.0.0.1. */
export const SUBSCRIPTIONS = { refreshMinutes: 60, allowPrivateHosts: true, fetchTimeoutMs: 5000 };

/** The calendar a subscription to `/<name>.ics` gets: named after <name>, with one event (on the 20th) titled after it. */
export const subscribedCalendar = (name: string) =>
  calendar(
    `X-WR-CALNAME:${name} subscription\r\n${vevent(
      `${name}@source.test`,
      `SUMMARY:${name} subscribed event\r\nDTSTART:20260320T090000Z\r\nDTEND:20260320T100000Z`,
    )}`,
  );

let calendarSource: Promise<{ base: string }> | undefined;

/**
 * The server subscriptions fetch from, on 127.0.0.1 only (no test request leaves this machine): /<name>.ics answers
 * subscribedCalendar(name), /page.html a web page that is no calendar, anything else 404. One per test file, started
 * with its first app and closed when the file ends.
 */
export function startCalendarSource(): Promise<{ base: string }> {
  calendarSource ??= (async () => {
    const server = http.createServer((request, response) => {
      const requested = request.url ?? '/';
      const name = /^\/([A-Za-z0-9-]{1,60})\.ics$/.exec(requested)?.[1];
      if (name) {
        response.writeHead(200, { 'content-type': 'text/calendar' }).end(subscribedCalendar(name));
      } else if (requested === '/page.html') {
        response.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Sign in</body></html>');
      } else {
        response.writeHead(404).end('not here');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    after(
      () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    );
    return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  })();
  return calendarSource;
}

export const ENDPOINTS: Endpoint[] = [
  // auth
  {
    method: 'POST',
    url: '/api/auth/register/user',
    protected: false,
    body: 'json',
    valid: (ctx) => {
      const username = `newcomer${ctx.unique()}`;
      return {
        body: { username, email: `${username}@example.com`, password: 'Passw0rd!', name: 'New Comer' },
      };
    },
  },
  {
    method: 'POST',
    url: '/api/auth/register',
    protected: false,
    body: 'json',
    valid: (ctx) => ({
      body: { email: `quick${ctx.unique()}@example.com`, password: 'Passw0rd!', name: 'Quick Start' },
    }),
  },
  {
    method: 'POST',
    url: '/api/auth/login',
    protected: false,
    body: 'json',
    valid: (ctx) => ({ body: { username: ctx.actor.user.username, password: ctx.actor.password } }),
  },
  { method: 'GET', url: '/api/auth/validate', protected: true, valid: () => ({}) },
  { method: 'GET', url: '/api/auth/me', protected: true, valid: () => ({}) },
  { method: 'POST', url: '/api/auth/logout', protected: true, body: 'none', valid: () => ({}) },
  { method: 'POST', url: '/api/auth/logout-all', protected: true, body: 'none', valid: () => ({}) },
  { method: 'GET', url: '/api/auth/sessions', protected: true, valid: () => ({}) },
  {
    method: 'DELETE',
    url: '/api/auth/sessions/:id',
    protected: true,
    body: 'none',
    idKind: 'session',
    valid: () => ({}),
  },
  {
    method: 'POST',
    url: '/api/auth/forgot-password',
    protected: false,
    body: 'json',
    valid: (ctx) => ({ body: { email: ctx.actor.user.email } }),
  },
  {
    method: 'POST',
    url: '/api/auth/reset-password',
    protected: false,
    body: 'json',
    valid: async (ctx) => ({ body: { token: await ctx.resetToken(), password: 'N3w-Passw0rd!' } }),
  },
  {
    method: 'POST',
    url: '/api/auth/change-password',
    protected: true,
    body: 'json',
    valid: (ctx) => ({ body: { currentPassword: ctx.actor.password, newPassword: 'N3w-Passw0rd!' } }),
    // Refused before the password check, so none of them counts as a password attempt (a stored row).
    invalid: [
      { name: 'new password too short', request: { body: { currentPassword: 'x', newPassword: 'Aa1!' } } },
      {
        name: 'new password without a digit',
        request: { body: { currentPassword: 'x', newPassword: 'Abcdefgh!' } },
      },
      {
        name: 'empty current password',
        request: { body: { currentPassword: '', newPassword: 'N3w-Passw0rd!' } },
      },
    ],
  },
  // health
  { method: 'GET', url: '/api/health', protected: false, valid: () => ({}) },
  // the OpenAPI document (its UI under /api/docs is outside the table)
  { method: 'GET', url: '/api/openapi.json', protected: false, valid: () => ({}) },
  // users
  { method: 'GET', url: '/api/users/me', protected: true, valid: () => ({}) },
  {
    method: 'PATCH',
    url: '/api/users/me',
    protected: true,
    body: 'json',
    valid: () => ({
      body: {
        name: 'Renamed',
        budgetHours: 7.5,
        budgetHoursByWeekday: [0, 8, 8, 8, 8, 6, 0],
        timeZone: 'Asia/Tokyo',
        profilePicture: 'https://x.test/p.png',
      },
    }),
    invalid: [
      { name: 'unknown time zone', request: { body: { timeZone: 'Mars/Olympus' } } },
      { name: 'budget over 24 hours', request: { body: { budgetHours: 25 } } },
      { name: 'negative budget', request: { body: { budgetHours: -1 } } },
      { name: 'six weekday budgets', request: { body: { budgetHoursByWeekday: [8, 8, 8, 8, 8, 8] } } },
      { name: 'weekday budget over 24', request: { body: { budgetHoursByWeekday: [8, 8, 8, 8, 8, 8, 25] } } },
      { name: 'weekday budgets not numbers', request: { body: { budgetHoursByWeekday: 'weekdays' } } },
    ],
  },
  { method: 'GET', url: '/api/users/me/export', protected: true, valid: () => ({}) },
  {
    method: 'DELETE',
    url: '/api/users/me',
    protected: true,
    body: 'json',
    valid: (ctx) => ({ body: { password: ctx.actor.password } }),
  },
  // categories
  { method: 'GET', url: '/api/categories', protected: true, valid: () => ({}) },
  {
    method: 'POST',
    url: '/api/categories',
    protected: true,
    body: 'json',
    valid: (ctx) => ({ body: { name: `Category ${ctx.unique()}`, color: '#336699' } }),
    invalid: [
      { name: 'blank name', request: { body: { name: '   ' } } },
      { name: 'colour not #RRGGBB', request: { body: { name: 'x', color: 'red' } } },
    ],
  },
  {
    method: 'PATCH',
    url: '/api/categories/:id',
    protected: true,
    body: 'json',
    idKind: 'category',
    valid: () => ({ body: { name: 'Recoloured', color: '#654321' } }),
  },
  {
    method: 'DELETE',
    url: '/api/categories/:id',
    protected: true,
    body: 'none',
    idKind: 'category',
    valid: () => ({}),
  },
  {
    method: 'POST',
    url: '/api/categories/:id/restore',
    protected: true,
    body: 'none',
    idKind: 'deletedCategory',
    valid: () => ({}),
  },
  // tasks
  {
    method: 'GET',
    url: '/api/tasks',
    protected: true,
    valid: () => ({ query: { date: DAY, done: 'false' } }),
    invalid: [
      { name: 'no date', request: { query: {} } },
      { name: 'done not a boolean', request: { query: { date: DAY, done: 'maybe' } } },
      { name: 'year 0000', request: { query: { date: '0000-01-01' } } },
    ],
  },
  { method: 'GET', url: '/api/tasks/today', protected: true, valid: () => ({}) },
  {
    method: 'GET',
    url: '/api/tasks/range',
    protected: true,
    valid: () => ({ query: { from: '2026-03-08', to: '2026-03-15' } }),
    invalid: [
      { name: 'to before from', request: { query: { from: '2026-03-15', to: '2026-03-08' } } },
      { name: 'over 62 days', request: { query: { from: '2026-01-01', to: '2026-06-01' } } },
      { name: 'no range', request: { query: {} } },
    ],
  },
  {
    method: 'GET',
    url: '/api/ledger',
    protected: true,
    valid: () => ({ query: { from: '2026-03-08', to: '2026-03-15' } }),
    invalid: [
      { name: 'empty range', request: { query: { from: DAY, to: DAY } } },
      { name: 'over 62 days', request: { query: { from: '2026-01-01', to: '2026-06-01' } } },
      { name: 'not a date', request: { query: { from: 'monday', to: '2026-03-15' } } },
    ],
  },
  {
    method: 'POST',
    url: '/api/tasks/:id/timer/start',
    protected: true,
    body: 'none',
    idKind: 'task',
    valid: () => ({}),
  },
  {
    method: 'POST',
    url: '/api/tasks/:id/timer/stop',
    protected: true,
    body: 'none',
    idKind: 'task',
    valid: () => ({}),
  },
  {
    method: 'POST',
    url: '/api/tasks',
    protected: true,
    body: 'json',
    dateFields: ['date'],
    valid: (ctx) => ({
      body: {
        title: 'Planned',
        categoryId: ctx.actor.ids.category,
        startHHMM: '16:00',
        endHHMM: '17:00',
        notes: 'notes',
        date: DAY,
        done: false,
        isEvent: false,
        isReminder: false,
        carryover: false,
      },
    }),
    invalid: [
      { name: 'end equals start', request: { body: { title: 't', startHHMM: '10:00', endHHMM: '10:00' } } },
      { name: 'minutes 60', request: { body: { title: 't', startHHMM: '10:00', endHHMM: '10:60' } } },
      { name: 'hour 24', request: { body: { title: 't', startHHMM: '24:00', endHHMM: '24:30' } } },
      { name: 'blank title', request: { body: { title: '  ', startHHMM: '09:00', endHHMM: '10:00' } } },
      {
        name: 'unknown category',
        request: { body: { title: 't', startHHMM: '09:00', endHHMM: '10:00', categoryId: MISSING_ID } },
      },
      { name: 'neither times nor estimate', request: { body: { title: 't' } } },
      { name: 'one time only', request: { body: { title: 't', startHHMM: '09:00', estimateMinutes: 30 } } },
      { name: 'estimate 0', request: { body: { title: 't', estimateMinutes: 0 } } },
      { name: 'estimate over a day', request: { body: { title: 't', estimateMinutes: 1441 } } },
      { name: 'estimate not whole', request: { body: { title: 't', estimateMinutes: 12.5 } } },
    ],
  },
  {
    method: 'PATCH',
    url: '/api/tasks/:id',
    protected: true,
    body: 'json',
    idKind: 'task',
    dateFields: ['date'],
    valid: () => ({
      body: { title: 'Edited', notes: 'n', startHHMM: '08:00', endHHMM: '08:30', date: DAY, done: true },
    }),
    invalid: [
      { name: 'end equals start', request: { body: { startHHMM: '12:00', endHHMM: '12:00' } } },
      {
        name: 'put back with end before start',
        request: { body: { start: '2026-03-11T12:00:00Z', end: '2026-03-11T11:00:00Z' } },
      },
      { name: 'start not a date-time', request: { body: { start: 'yesterday at noon' } } },
      { name: 'one time cleared', request: { body: { startHHMM: null, endHHMM: '10:00' } } },
      { name: 'tracked over a day', request: { body: { trackedMinutes: 1441 } } },
      { name: 'tracked negative', request: { body: { trackedMinutes: -5 } } },
      { name: 'estimate not a number', request: { body: { estimateMinutes: 'an hour' } } },
    ],
  },
  {
    method: 'DELETE',
    url: '/api/tasks/:id',
    protected: true,
    body: 'none',
    idKind: 'task',
    valid: () => ({}),
  },
  {
    method: 'POST',
    url: '/api/tasks/put-back',
    protected: true,
    body: 'json',
    dateFields: ['date'],
    valid: (ctx) => ({ body: { ids: [ctx.actor.ids.task], date: DAY } }),
    invalid: [
      { name: 'no ids', request: { body: { ids: [], date: DAY } } },
      { name: 'ids not a list', request: { body: { ids: 'all', date: DAY } } },
      { name: 'an empty id', request: { body: { ids: [''], date: DAY } } },
      { name: 'a missing id', request: { body: { ids: [MISSING_ID], date: DAY } } },
      {
        name: 'over 200 ids',
        request: { body: { ids: Array.from({ length: 201 }, (_, index) => `id${index}`), date: DAY } },
      },
      { name: 'no date', request: { body: { ids: [MISSING_ID] } } },
    ],
  },
  {
    method: 'POST',
    url: '/api/tasks/:id/restore',
    protected: true,
    body: 'none',
    idKind: 'deletedTask',
    valid: () => ({}),
  },
  // events
  {
    method: 'GET',
    url: '/api/events',
    protected: true,
    valid: () => ({ query: { from: '2026-03-01', to: '2026-04-01' } }),
    invalid: [
      { name: 'to before from', request: { query: { from: '2026-04-01', to: '2026-03-01' } } },
      { name: 'empty range', request: { query: { from: DAY, to: DAY } } },
      { name: 'range over 62 days', request: { query: { from: '2026-03-01', to: '2026-05-03' } } },
      { name: 'range of years', request: { query: { from: '2020-01-01', to: '2026-01-01' } } },
      { name: 'missing to', request: { query: { from: DAY } } },
    ],
  },
  { method: 'GET', url: '/api/events/today', protected: true, valid: () => ({}) },
  {
    method: 'POST',
    url: '/api/events',
    protected: true,
    body: 'json',
    instantFields: ['start', 'end'],
    valid: (ctx) => ({
      body: {
        title: 'Meeting',
        start: '2026-03-11T16:00:00Z',
        end: '2026-03-11T17:00:00Z',
        allDay: false,
        categoryId: ctx.actor.ids.category,
      },
    }),
    invalid: [
      {
        name: 'unknown category',
        request: {
          body: {
            title: 't',
            start: '2026-03-11T12:00:00Z',
            end: '2026-03-11T13:00:00Z',
            categoryId: MISSING_ID,
          },
        },
      },
      {
        name: 'end before start',
        request: { body: { title: 't', start: '2026-03-11T12:00:00Z', end: '2026-03-11T11:00:00Z' } },
      },
      {
        name: 'year 9999',
        request: { body: { title: 't', start: '9999-03-11T12:00:00Z', end: '9999-03-11T13:00:00Z' } },
      },
      {
        name: 'offset +25:00',
        request: { body: { title: 't', start: '2026-03-11T12:00:00+25:00', end: '2026-03-11T13:00:00Z' } },
      },
    ],
  },
  {
    method: 'PATCH',
    url: '/api/events/:id',
    protected: true,
    body: 'json',
    idKind: 'event',
    instantFields: ['start', 'end'],
    valid: () => ({
      body: { title: 'Moved', start: '2026-03-11T18:00:00Z', end: '2026-03-11T19:00:00Z', allDay: false },
    }),
    invalid: [
      {
        name: 'end before start',
        request: { body: { start: '2026-03-11T12:00:00Z', end: '2026-03-11T11:00:00Z' } },
      },
      { name: 'blank title', request: { body: { title: '' } } },
    ],
  },
  {
    method: 'DELETE',
    url: '/api/events/:id',
    protected: true,
    body: 'none',
    idKind: 'event',
    valid: () => ({}),
  },
  {
    method: 'POST',
    url: '/api/events/:id/restore',
    protected: true,
    body: 'none',
    idKind: 'deletedEvent',
    valid: () => ({}),
  },
  {
    method: 'POST',
    url: '/api/events/import',
    protected: true,
    body: 'multipart',
    valid: (ctx) => ({
      ics: calendar(
        vevent(
          `import-${ctx.unique()}@example.com`,
          'SUMMARY:Imported\r\nDTSTART:20260311T200000Z\r\nDTEND:20260311T210000Z',
        ),
      ),
    }),
  },
  { method: 'GET', url: '/api/events/export.ics', protected: true, valid: () => ({}) },
  {
    method: 'POST',
    url: '/api/events/:id/copy',
    protected: true,
    body: 'none',
    idKind: 'event',
    valid: () => ({}),
  },
  // calendars: the own one (its id is the user's) and subscriptions, which fetch from the calendar source above
  { method: 'GET', url: '/api/calendars', protected: true, valid: () => ({}) },
  {
    method: 'POST',
    url: '/api/calendars',
    protected: true,
    body: 'json',
    valid: (ctx) => ({
      body: {
        url: ctx.actor.calendarUrl,
        name: `Subscribed ${ctx.unique()}`,
        color: '#0d9488',
        countsInBudget: false,
      },
    }),
    invalid: [
      { name: 'an ftp: address', request: { body: { url: 'ftp://127.0.0.1/calendar.ics' } } },
      { name: 'an empty address', request: { body: { url: '' } } },
      {
        name: 'an address with a password',
        request: { body: { url: 'http://someone:secret@127.0.0.1/calendar.ics' } },
      },
      {
        name: 'an address nothing answers at',
        request: { body: { url: 'http://127.0.0.1:1/calendar.ics' } },
      },
      {
        name: 'an address that serves a web page',
        request: (ctx) => ({ body: { url: new URL('/page.html', ctx.actor.calendarUrl).href } }),
      },
      {
        name: 'an address that answers 404',
        request: (ctx) => ({ body: { url: new URL('/gone/calendar.ics', ctx.actor.calendarUrl).href } }),
      },
      {
        name: 'colour not #rrggbb',
        request: (ctx) => ({ body: { url: ctx.actor.calendarUrl, color: 'teal' } }),
      },
      {
        name: 'name over 100 characters',
        request: (ctx) => ({ body: { url: ctx.actor.calendarUrl, name: 'n'.repeat(101) } }),
      },
    ],
  },
  {
    method: 'PATCH',
    url: '/api/calendars/:id',
    protected: true,
    body: 'json',
    idKind: 'calendar',
    valid: () => ({ body: { name: 'Renamed subscription', color: '#A1B2C3', countsInBudget: false } }),
    invalid: [
      { name: 'colour not #rrggbb', request: { body: { color: '#12345' } } },
      { name: 'colour by name', request: { body: { color: 'teal' } } },
      { name: 'name over 100 characters', request: { body: { name: 'n'.repeat(101) } } },
      { name: 'blank name', request: { body: { name: '   ' } } },
    ],
  },
  {
    method: 'DELETE',
    url: '/api/calendars/:id',
    protected: true,
    body: 'none',
    idKind: 'calendar',
    valid: () => ({}),
  },
  {
    method: 'POST',
    url: '/api/calendars/:id/restore',
    protected: true,
    body: 'none',
    idKind: 'deletedCalendar',
    valid: () => ({}),
  },
  {
    method: 'POST',
    url: '/api/calendars/:id/refresh',
    protected: true,
    body: 'none',
    idKind: 'calendar',
    valid: () => ({}),
  },
  { method: 'GET', url: '/api/calendars/feed', protected: true, valid: () => ({}) },
  { method: 'POST', url: '/api/calendars/feed', protected: true, body: 'none', valid: () => ({}) },
  { method: 'DELETE', url: '/api/calendars/feed', protected: true, body: 'none', valid: () => ({}) },
  // the private feed: no session, its secret address is the key
  {
    method: 'GET',
    url: '/api/feed/:file',
    protected: false,
    valid: (ctx) => ({ path: ctx.actor.feed }),
    invalid: [
      { name: 'a token one character short', request: { path: `/api/feed/${'A'.repeat(42)}.ics` } },
      { name: 'a well-formed token never issued', request: { path: `/api/feed/${'A'.repeat(43)}.ics` } },
      { name: 'the token without .ics', request: (ctx) => ({ path: ctx.actor.feed.replace(/\.ics$/, '') }) },
      { name: 'the token as .ICS', request: (ctx) => ({ path: ctx.actor.feed.replace(/\.ics$/, '.ICS') }) },
      { name: 'a session token', request: (ctx) => ({ path: `/api/feed/${ctx.actor.token}.ics` }) },
      { name: 'a path out of the folder', request: { path: '/api/feed/..%2F..%2Fetc%2Fpasswd' } },
    ],
  },
  // tracked time (the actor's task runs 09:00-11:00 on DAY; its entry 09:00-10:00, the deleted one 10:00-10:30, UTC)
  {
    method: 'GET',
    url: '/api/time-entries',
    protected: true,
    valid: () => ({ query: { from: '2026-03-08', to: '2026-03-15' } }),
    invalid: [
      { name: 'to before from', request: { query: { from: '2026-03-15', to: '2026-03-08' } } },
      { name: 'empty range', request: { query: { from: DAY, to: DAY } } },
      { name: 'over 62 days', request: { query: { from: '2026-01-01', to: '2026-06-01' } } },
      { name: 'not a date', request: { query: { from: 'monday', to: '2026-03-15' } } },
      { name: 'no range', request: { query: {} } },
    ],
  },
  {
    method: 'POST',
    url: '/api/time-entries',
    protected: true,
    body: 'json',
    instantFields: ['start', 'end'],
    valid: (ctx) => ({
      body: { taskId: ctx.actor.ids.task, start: '2026-03-11T11:00:00Z', end: '2026-03-11T11:30:00Z' },
    }),
    invalid: [
      {
        name: 'end equals start',
        request: (ctx) => ({
          body: { taskId: ctx.actor.ids.task, start: '2026-03-11T12:00:00Z', end: '2026-03-11T12:00:00Z' },
        }),
      },
      {
        name: 'end before start',
        request: (ctx) => ({
          body: { taskId: ctx.actor.ids.task, start: '2026-03-11T12:00:00Z', end: '2026-03-11T11:00:00Z' },
        }),
      },
      {
        name: 'over 24 hours',
        request: (ctx) => ({
          body: { taskId: ctx.actor.ids.task, start: '2026-03-09T12:00:00Z', end: '2026-03-11T12:00:00Z' },
        }),
      },
      {
        name: 'ending in the future',
        request: (ctx) => ({
          body: { taskId: ctx.actor.ids.task, start: '2026-03-11T14:00:00Z', end: '2026-03-11T18:00:00Z' },
        }),
      },
      {
        name: 'overlapping an entry of the own',
        request: (ctx) => ({
          body: { taskId: ctx.actor.ids.task, start: '2026-03-11T09:30:00Z', end: '2026-03-11T09:45:00Z' },
        }),
      },
      {
        name: 'a missing task',
        request: { body: { taskId: MISSING_ID, start: '2026-03-11T12:00:00Z', end: '2026-03-11T12:30:00Z' } },
      },
      {
        name: 'year 9999',
        request: (ctx) => ({
          body: { taskId: ctx.actor.ids.task, start: '9999-03-11T12:00:00Z', end: '9999-03-11T13:00:00Z' },
        }),
      },
      {
        name: 'offset +25:00',
        request: (ctx) => ({
          body: {
            taskId: ctx.actor.ids.task,
            start: '2026-03-11T12:00:00+25:00',
            end: '2026-03-11T13:00:00Z',
          },
        }),
      },
    ],
  },
  {
    method: 'PATCH',
    url: '/api/time-entries/:id',
    protected: true,
    body: 'json',
    idKind: 'timeEntry',
    instantFields: ['start', 'end'],
    valid: () => ({ body: { start: '2026-03-11T08:30:00Z', end: '2026-03-11T09:50:00Z' } }),
    invalid: [
      {
        name: 'end before start',
        request: { body: { start: '2026-03-11T09:00:00Z', end: '2026-03-11T08:00:00Z' } },
      },
      { name: 'over 24 hours', request: { body: { start: '2026-03-10T08:00:00Z' } } },
      { name: 'ending in the future', request: { body: { end: '2026-03-11T20:00:00Z' } } },
      { name: 'a missing task', request: { body: { taskId: MISSING_ID } } },
      { name: 'an empty task id', request: { body: { taskId: '' } } },
    ],
  },
  {
    method: 'DELETE',
    url: '/api/time-entries/:id',
    protected: true,
    body: 'none',
    idKind: 'timeEntry',
    valid: () => ({}),
  },
  {
    method: 'POST',
    url: '/api/time-entries/:id/restore',
    protected: true,
    body: 'none',
    idKind: 'deletedTimeEntry',
    valid: () => ({}),
  },
  // reminders: settings and the browsers that receive them
  { method: 'GET', url: '/api/users/me/notifications', protected: true, valid: () => ({}) },
  {
    method: 'PATCH',
    url: '/api/users/me/notifications',
    protected: true,
    body: 'json',
    valid: () => ({ body: { eventReminderMinutes: 15, taskStart: false, planDayAt: '08:30' } }),
    invalid: [
      { name: 'minutes over a day', request: { body: { eventReminderMinutes: 1441 } } },
      { name: 'negative minutes', request: { body: { eventReminderMinutes: -5 } } },
      { name: 'a time that is not HH:MM', request: { body: { planDayAt: '25:00' } } },
      { name: 'a switch as text', request: { body: { taskStart: 'yes' } } },
      { name: 'an unknown field', request: { body: { sound: 'loud' } } },
    ],
  },
  { method: 'GET', url: '/api/push/key', protected: true, valid: () => ({}) },
  { method: 'GET', url: '/api/push/subscriptions', protected: true, valid: () => ({}) },
  {
    method: 'POST',
    url: '/api/push/subscriptions',
    protected: true,
    body: 'json',
    valid: (ctx) => ({
      body: {
        subscription: browserSubscription(`https://127.0.0.1:1/push/${ctx.actor.label}-${unique()}`).json,
        device: `${ctx.actor.label} laptop`,
      },
    }),
    invalid: [
      {
        name: 'an http endpoint',
        request: {
          body: { subscription: browserSubscription('http://127.0.0.1:1/push/x').json, device: 'x' },
        },
      },
      {
        name: 'a key that is not a P-256 point',
        request: {
          body: {
            subscription: { endpoint: 'https://127.0.0.1:1/push/y', keys: { p256dh: 'AAAA', auth: 'AAAA' } },
            device: 'y',
          },
        },
      },
      {
        name: 'no device name',
        request: {
          body: { subscription: browserSubscription('https://127.0.0.1:1/push/z').json, device: '' },
        },
      },
    ],
  },
  {
    method: 'DELETE',
    url: '/api/push/subscriptions/:id',
    protected: true,
    body: 'none',
    idKind: 'pushDevice',
    valid: () => ({}),
  },
  { method: 'POST', url: '/api/push/test', protected: true, body: 'none', valid: () => ({}) },
  // insights: the valid request reads the default period (8 weeks)
  {
    method: 'GET',
    url: '/api/insights/estimates',
    protected: true,
    valid: () => ({}),
    invalid: [
      { name: 'weeks 0', request: { query: { weeks: '0' } } },
      { name: 'weeks 53', request: { query: { weeks: '53' } } },
      { name: 'weeks not a number', request: { query: { weeks: 'eight' } } },
      { name: 'an unknown parameter', request: { query: { days: '7' } } },
    ],
  },
  // aggregation
  {
    method: 'GET',
    url: '/api/aggregation/analytics/weekly',
    protected: true,
    valid: () => ({ query: { date: DAY } }),
    invalid: [{ name: 'year 3000', request: { query: { date: '3000-01-01' } } }],
  },
  {
    method: 'POST',
    url: '/api/aggregation/analytics/weekly/update',
    protected: true,
    body: 'none',
    valid: () => ({}),
  },
];

export const PROTECTED_ENDPOINTS = ENDPOINTS.filter((endpoint) => endpoint.protected);
export const WRITE_ENDPOINTS = ENDPOINTS.filter((endpoint) => endpoint.method !== 'GET');
export const describeEndpoint = (endpoint: Pick<Endpoint, 'method' | 'url'>) =>
  `${endpoint.method} ${endpoint.url}`;

/** Routes outside the table on purpose: the OpenAPI document and its UI, and CORS's catch-all preflight. */
export const EXCLUDED_ROUTES = [/^\/api\/docs(\/|$)/];
export const EXCLUDED_METHODS = ['HEAD', 'OPTIONS'];

/**
 * Every route an app registers, as 'METHOD /url', read with an onRoute hook that Fastify's initialization channel
 * lets a test add before any plugin runs. Call before building the app; the hook stays on that app only.
 */
export function recordRoutes(): { routes: Set<string>; stop(): void } {
  const routes = new Set<string>();
  const onInit = (message: unknown) => {
    const { fastify } = message as { fastify: FastifyInstance };
    fastify.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) routes.add(`${method} ${route.url}`);
    });
  };
  diagnostics.subscribe('fastify.initialization', onInit);
  return { routes, stop: () => diagnostics.unsubscribe('fastify.initialization', onInit) };
}

export function multipart(parts: Array<{ name: string; filename?: string; content: string | Buffer }>) {
  const boundary = '----security-suite-boundary';
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename ? `; filename="${part.filename}"` : ''}`;
    const type = part.filename ? 'Content-Type: text/calendar\r\n' : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`));
    chunks.push(Buffer.from(part.content));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export function urlOf(endpoint: Endpoint, id: string | undefined, query?: Record<string, string>): string {
  const url = endpoint.url.replace(':id', encodeURIComponent(id ?? ''));
  const search = query ? new URLSearchParams(query).toString() : '';
  return search ? `${url}?${search}` : url;
}

/** The inject options for a request built from the table, with the actor's own id for :id and its headers. */
export function injectOptions(
  endpoint: Endpoint,
  ctx: RequestContext,
  request: ValidRequest,
  options: { id?: string; headers?: Record<string, string> } = {},
): InjectOptions {
  const id = endpoint.idKind ? (options.id ?? ctx.actor.ids[endpoint.idKind]) : undefined;
  const headers: Record<string, string> = { ...(options.headers ?? ctx.actor.headers) };
  const url = request.path ?? urlOf(endpoint, id, request.query);
  const result: InjectOptions = { method: endpoint.method, url, headers };
  if (request.ics !== undefined) {
    const body = multipart([{ name: 'file', filename: 'calendar.ics', content: request.ics }]);
    headers['content-type'] = body.contentType;
    result.payload = body.payload;
  } else if (request.body !== undefined) {
    headers['content-type'] = 'application/json';
    result.payload = JSON.stringify(request.body);
  }
  return result;
}

let uniqueCounter = 0;
export const unique = () => `${process.pid}x${(uniqueCounter += 1)}`;

export function contextFor(app: FastifyInstance, dataDir: string, actor: Actor): RequestContext {
  return {
    actor,
    unique,
    resetToken: async () => {
      const asked = await app.inject({
        method: 'POST',
        url: '/api/auth/forgot-password',
        payload: { email: actor.user.email },
      });
      assert.equal(asked.statusCode, 202, asked.body);
      await app.mailer.flush();
      const outbox = path.join(dataDir, 'outbox');
      const files = (await readdir(outbox)).sort().reverse();
      for (const file of files) {
        const text = await readFile(path.join(outbox, file), 'utf8');
        const match = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(text);
        if (text.includes(`To: ${actor.user.email}`) && match) return match[1]!;
      }
      throw new Error(`no reset mail for ${actor.user.email}`);
    },
  };
}

async function created(response: LightMyRequestResponse): Promise<{ _id: string }> {
  assert.ok(response.statusCode < 300, response.body);
  return response.json();
}

/** A subscription to `url` with the id of its event, and another one removed (each fetch is parsed in a worker). */
async function subscribedTo(app: FastifyInstance, user: SignedInUser, url: string) {
  const subscribe = async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/calendars',
      headers: user.headers,
      payload: { url },
    });
    assert.equal(response.statusCode, 201, response.body);
    return response.json<{ id: string }>().id;
  };
  const calendar = await subscribe();
  const deletedCalendar = await subscribe();
  const removal = await app.inject({
    method: 'DELETE',
    url: `/api/calendars/${deletedCalendar}`,
    headers: user.headers,
  });
  assert.equal(removal.statusCode, 204, removal.body);
  const events = await app.inject({
    method: 'GET',
    url: '/api/events?from=2026-03-20&to=2026-03-21',
    headers: user.headers,
  });
  const subscribedEvent = events
    .json<Array<{ _id: string; calendarId: string }>>()
    .find((row) => row.calendarId === calendar);
  assert.ok(subscribedEvent, events.body);
  return { calendar, deletedCalendar, subscribedEvent: subscribedEvent._id };
}

/** Whether an endpoint's valid request needs the actor's subscriptions (an actor made for it alone may skip them). */
export const needsSubscriptions = (endpoint: Endpoint) =>
  endpoint.idKind === 'calendar' || endpoint.idKind === 'deletedCalendar';

/**
 * A signed-up user with a second session (another device, so ending it leaves the actor's token alive), a category,
 * a task in it with an hour of tracked time (a manual entry), a manual event, one of each kind deleted (a time entry
 * too), a published feed, a subscription with its event and one
 * removed, an imported event and a weekly snapshot. A subscription or an import is read in a worker thread, so
 * callers that need many users may skip them (their ids are then empty).
 */
export async function seedActor(
  app: FastifyInstance,
  label: string,
  options: { importEvent?: boolean; subscriptions?: boolean } = {},
): Promise<Actor> {
  const user = await signUp(app, { username: `${label}${unique()}`, timeZone: 'UTC' });
  const otherDevice = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers: { 'user-agent': `${label} phone` },
    payload: { username: user.user.username, password: user.password },
  });
  assert.equal(otherDevice.statusCode, 200, otherDevice.body);
  const session = String(decodeJwt(otherDevice.json<{ token: string }>().token).jti);
  const post = (url: string, payload: object) =>
    app.inject({ method: 'POST', url, headers: user.headers, payload });
  const category = await created(
    await post('/api/categories', { name: `${label} category`, color: '#123456' }),
  );
  const task = await created(
    await post('/api/tasks', {
      title: `${label} task`,
      categoryId: category._id,
      notes: `${label} notes`,
      startHHMM: '09:00',
      endHHMM: '11:00',
      date: DAY,
    }),
  );
  const event = await created(
    await post('/api/events', {
      title: `${label} event`,
      start: '2026-03-11T12:00:00Z',
      end: '2026-03-11T13:00:00Z',
    }),
  );
  // One of each kind deleted, so each restore route has a record to bring back.
  const deleted = async (url: string, payload: object) => {
    const record = await created(await post(url, payload));
    const removal = await app.inject({
      method: 'DELETE',
      url: `${url}/${record._id}`,
      headers: user.headers,
    });
    assert.equal(removal.statusCode, 204, removal.body);
    return record._id;
  };
  const trash = {
    deletedTask: await deleted('/api/tasks', {
      title: `${label} deleted task`,
      startHHMM: '13:00',
      endHHMM: '14:00',
      date: DAY,
    }),
    deletedEvent: await deleted('/api/events', {
      title: `${label} deleted event`,
      start: '2026-03-11T15:00:00Z',
      end: '2026-03-11T16:00:00Z',
    }),
    deletedCategory: await deleted('/api/categories', { name: `${label} deleted category` }),
  };
  // Tracked time on the task: one entry kept, one deleted (a time entry answers `id`, not `_id`).
  const entry = async (start: string, end: string) => {
    const response = await post('/api/time-entries', { taskId: task._id, start, end });
    assert.equal(response.statusCode, 201, response.body);
    return response.json<{ id: string }>().id;
  };
  const timeEntry = await entry('2026-03-11T09:00:00Z', '2026-03-11T10:00:00Z');
  const deletedTimeEntry = await entry('2026-03-11T10:00:00Z', '2026-03-11T10:30:00Z');
  // A browser subscribed to the actor's reminders.
  const device = await post('/api/push/subscriptions', {
    subscription: browserSubscription(`https://127.0.0.1:1/push/${label}-${unique()}`).json,
    device: `${label} phone`,
  });
  assert.equal(device.statusCode, 201, device.body);
  const pushDevice = device.json<{ id: string }>().id;
  const entryRemoval = await app.inject({
    method: 'DELETE',
    url: `/api/time-entries/${deletedTimeEntry}`,
    headers: user.headers,
  });
  assert.equal(entryRemoval.statusCode, 204, entryRemoval.body);
  // The address of a calendar that carries the label, a subscription to it (and one removed, for restore), and a
  // published feed.
  const calendarUrl = `${(await startCalendarSource()).base}/${label}.ics`;
  const subscriptions =
    options.subscriptions === false
      ? { calendar: '', deletedCalendar: '', subscribedEvent: '' }
      : await subscribedTo(app, user, calendarUrl);
  const published = await post('/api/calendars/feed', {});
  assert.equal(published.statusCode, 200, published.body);
  const calendars = {
    calendarUrl,
    feed: new URL(published.json<{ url: string }>().url).pathname,
  };
  const ids = {
    category: category._id,
    task: task._id,
    event: event._id,
    session,
    timeEntry,
    deletedTimeEntry,
    pushDevice,
    ...trash,
    ...subscriptions,
  };
  if (options.importEvent === false)
    return { ...user, label, ...calendars, ids: { ...ids, importedEvent: '' } };
  const upload = multipart([
    {
      name: 'file',
      filename: 'mine.ics',
      content: calendar(
        vevent(
          `${label}-${unique()}@example.com`,
          `SUMMARY:${label} imported\r\nDTSTART:20260311T140000Z\r\nDTEND:20260311T143000Z`,
        ),
      ),
    },
  ]);
  const imported = await app.inject({
    method: 'POST',
    url: '/api/events/import',
    headers: { ...user.headers, 'content-type': upload.contentType },
    payload: upload.payload,
  });
  assert.deepEqual(imported.json(), importAnswer({ created: 1 }));
  const events = await app.inject({
    method: 'GET',
    url: `/api/events?from=${DAY}&to=2026-03-12`,
    headers: user.headers,
  });
  const importedEvent = (events.json() as Array<{ _id: string; source: string }>).find(
    (row) => row.source === 'ics',
  )!;
  const snapshot = await app.inject({
    method: 'POST',
    url: '/api/aggregation/analytics/weekly/update',
    headers: user.headers,
  });
  assert.equal(snapshot.statusCode, 200, snapshot.body);
  return { ...user, label, ...calendars, ids: { ...ids, importedEvent: importedEvent._id } };
}

const USER_TABLES = [
  'sessions',
  'passwordResets',
  'categories',
  'tasks',
  'events',
  'analyticsSnapshots',
  'calendars',
  'deletedRecords',
  'timeEntries',
  'budgetPeriods',
] as const;
const ALL_TABLES = ['users', 'signInThrottle', ...USER_TABLES] as const;

const sortedRows = (rows: unknown[]) => rows.map((row) => JSON.stringify(row)).sort();

/** Every stored row of one user (users row included), read from the database itself, not through the API. */
export async function userState(app: FastifyInstance, userId: string) {
  const [users, ...rest] = await Promise.all([
    app.db.selectFrom('users').selectAll().where('id', '=', userId).execute(),
    ...USER_TABLES.map((table) =>
      app.db.selectFrom(table).selectAll().where('userId', '=', userId).execute(),
    ),
  ]);
  return Object.fromEntries([
    ['users', sortedRows(users!)],
    ...USER_TABLES.map((table, index) => [table, sortedRows(rest[index]!)]),
  ]) as Record<string, string[]>;
}

/** Every row the application stores (the per-IP rate-limit counters excepted). */
export async function databaseState(app: FastifyInstance) {
  const rows = await Promise.all(ALL_TABLES.map((table) => app.db.selectFrom(table).selectAll().execute()));
  return Object.fromEntries(ALL_TABLES.map((table, index) => [table, sortedRows(rows[index]!)])) as Partial<
    Record<keyof Database, string[]>
  >;
}

export async function buildSecurityApp(options: Parameters<typeof buildTestApp>[0] = {}): Promise<TestApp> {
  await startCalendarSource();
  return buildTestApp({ now: NOW, ...options, config: { subscriptions: SUBSCRIPTIONS, ...options.config } });
}

/** A 4xx/5xx body must be a JSON object with a string message and nothing that looks like internals. */
export function assertJsonMessage(response: LightMyRequestResponse, context: string): void {
  assert.match(String(response.headers['content-type']), /^application\/json/, context);
  const body = response.json() as { message?: unknown };
  assert.equal(typeof body.message, 'string', `${context}: ${response.body}`);
  assert.doesNotMatch(response.body, /FST_|ERR_|at .+\.(ts|js):\d+|SQLITE|postgres/i, context);
}

/** One summary line per area, printed when the file's tests are done. */
export function report(line: string): void {
  console.log(`security: ${line}`);
}
