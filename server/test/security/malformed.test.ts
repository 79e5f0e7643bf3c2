import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { InjectOptions } from 'fastify';
import {
  ENDPOINTS,
  assertJsonMessage,
  buildSecurityApp,
  contextFor,
  databaseState,
  describeEndpoint,
  injectOptions,
  multipart,
  report,
  seedActor,
  urlOf,
  type Endpoint,
  type RequestContext,
} from './support.js';

const { app, dataDir } = await buildSecurityApp();
const actor = await seedActor(app, 'malformed', { importEvent: false });
const ctx = contextFor(app, dataDir, actor);

const TOO_LONG = 'x'.repeat(20_000);
const BAD_DATES = ['2026-02-30', '2026-13-01', '2026-00-10', '26-03-11', '2026-3-1'];
const BAD_INSTANTS = ['2026-02-30T10:00:00Z', '2026-03-11T25:00:00Z', '2026-03-11T10:61:00Z', 'not a date'];
const BAD_IDS = ['%00', 'a%0Ab', '%ff', 'x'.repeat(101), '%2e%2e%2F%2e%2e'];

interface Case {
  name: string;
  request: InjectOptions;
}

function wrongTypeOf(value: unknown): unknown[] {
  if (typeof value === 'string') return [12345, ['array'], { nested: 'object' }];
  if (typeof value === 'number') return [String(value), true];
  if (typeof value === 'boolean') return [String(value), 1];
  return [];
}

function withBody(base: InjectOptions, payload: string, contentType = 'application/json'): InjectOptions {
  return { ...base, headers: { ...(base.headers as object), 'content-type': contentType }, payload };
}

/** Every malformed variant of one endpoint's valid request. */
async function casesFor(endpoint: Endpoint, context: RequestContext): Promise<Case[]> {
  const valid = await endpoint.valid(context);
  const base = injectOptions(endpoint, context, valid);
  const cases: Case[] = [];
  const add = (what: string, request: InjectOptions) =>
    cases.push({ name: `${describeEndpoint(endpoint)}: ${what}`, request });

  if (endpoint.body === 'json' || endpoint.body === 'none') {
    const text = JSON.stringify(valid.body ?? {});
    add('invalid JSON', withBody(base, text.slice(0, -1)));
    add('JSON with a trailing comma', withBody(base, text === '{}' ? '{,}' : `${text.slice(0, -1)},}`));
    add('text/plain', withBody(base, text, 'text/plain'));
    add('application/xml', withBody(base, '<task><title>x</title></task>', 'application/xml'));
    add('form-encoded', withBody(base, 'title=x', 'application/x-www-form-urlencoded'));
    add('body over the limit', withBody(base, JSON.stringify({ title: 'x'.repeat(150 * 1024) })));
    add('a JSON array', withBody(base, '[]'));
    add('a JSON string', withBody(base, '"text"'));
    add('nested 10000 deep', withBody(base, `${'['.repeat(10_000)}${']'.repeat(10_000)}`));
    add('a NUL in a key', withBody(base, JSON.stringify({ 'ti\u0000tle': 'x' })));
  }
  if (endpoint.body === 'json') {
    const body = valid.body ?? {};
    for (const [field, value] of Object.entries(body)) {
      const changed = (what: string, replacement: unknown) =>
        add(`${field} ${what}`, withBody(base, JSON.stringify({ ...body, [field]: replacement })));
      for (const wrong of wrongTypeOf(value)) changed(`as ${JSON.stringify(wrong)}`, wrong);
      if (typeof value === 'string') {
        changed('20000 characters long', TOO_LONG);
        changed('with a NUL byte', `${value}\u0000`);
        changed('with an escape character', `\u001b[31m${value}`);
      }
      if (endpoint.dateFields?.includes(field)) for (const date of BAD_DATES) changed(`= ${date}`, date);
      if (endpoint.instantFields?.includes(field))
        for (const instant of BAD_INSTANTS) changed(`= ${instant}`, instant);
    }
    const required = Object.keys(body);
    if (required.length > 0) add('unknown field only', withBody(base, JSON.stringify({ colour: 'red' })));
  }
  if (endpoint.body === 'multipart') {
    const content = valid.ics!;
    const send = (what: string, payload: Buffer | string, contentType: string) =>
      add(what, withBody(base, payload as string, contentType));
    send('as JSON', JSON.stringify({ file: content }), 'application/json');
    send('as text/calendar', content, 'text/calendar');
    send('multipart without a boundary', content, 'multipart/form-data');
    const truncated = multipart([{ name: 'file', filename: 'a.ics', content }]);
    send('truncated multipart', truncated.payload.subarray(0, 80), truncated.contentType);
    const noFile = multipart([]);
    send('multipart with no part', noFile.payload, noFile.contentType);
    const two = multipart([
      { name: 'file', filename: 'a.ics', content },
      { name: 'file', filename: 'b.ics', content },
    ]);
    send('two files', two.payload, two.contentType);
    const huge = multipart([
      { name: 'file', filename: 'big.ics', content: Buffer.alloc(1024 * 1024 + 1, 65) },
    ]);
    send('a file over 1 MiB', huge.payload, huge.contentType);
    // Files that reach the calendar parser (empty, no VEVENT, NUL) are in ics-hostile.test.ts and events-ics.test.ts:
    // each one starts a worker, too slow to repeat here.
  }
  if (endpoint.idKind) {
    for (const id of BAD_IDS) add(`id ${id.slice(0, 20)}`, { ...base, url: endpoint.url.replace(':id', id) });
  }
  if (valid.query) {
    const query = valid.query;
    add('unknown query parameter', { ...base, url: urlOf(endpoint, undefined, { ...query, limit: '10' }) });
    for (const field of Object.keys(query)) {
      const changed = (what: string, replacement: string) =>
        add(`?${field} ${what}`, {
          ...base,
          url: urlOf(endpoint, undefined, { ...query, [field]: replacement }),
        });
      for (const date of field === 'done' ? ['yes', '1', ''] : [...BAD_DATES, '', TOO_LONG.slice(0, 300)])
        changed(`= ${date.slice(0, 20)}`, date);
      add(`?${field} repeated`, {
        ...base,
        url: `${urlOf(endpoint, undefined, query)}&${field}=${encodeURIComponent(query[field]!)}`,
      });
      add(`?${field} with a NUL`, {
        ...base,
        url: urlOf(endpoint, undefined, { ...query, [field]: `${query[field]}\u0000` }),
      });
    }
  }
  for (const { name, request } of endpoint.invalid ?? [])
    add(name, injectOptions(endpoint, context, typeof request === 'function' ? request(context) : request));
  return cases;
}

const tally = { requests: 0, clientErrors: 0, serverErrors: 0 };
after(() =>
  report(
    `malformed: ${tally.requests} requests, ${tally.clientErrors} 4xx, ${tally.serverErrors} 5xx (from ${ENDPOINTS.length} table rows)`,
  ),
);

describe('malformed requests generated from the endpoint table', () => {
  test('every one answers 4xx with a JSON {message}; none answers 5xx; nothing is stored', async () => {
    const cases: Case[] = [];
    for (const endpoint of ENDPOINTS) cases.push(...(await casesFor(endpoint, ctx)));
    const before = await databaseState(app);
    const failures: string[] = [];
    for (const { name, request } of cases) {
      const response = await app.inject(request);
      tally.requests += 1;
      if (response.statusCode >= 500) tally.serverErrors += 1;
      if (response.statusCode >= 400 && response.statusCode < 500) tally.clientErrors += 1;
      else failures.push(`${name}: ${response.statusCode} ${response.body.slice(0, 200)}`);
      if (response.statusCode >= 400) assertJsonMessage(response, name);
    }
    assert.deepEqual(failures, []);
    assert.ok(tally.requests >= 100, `only ${tally.requests} malformed requests`);
    assert.equal(tally.serverErrors, 0);
    assert.deepEqual(await databaseState(app), before);
    // Still serving, with the same session.
    const me = await app.inject({ method: 'GET', url: '/api/auth/me', headers: actor.headers });
    assert.equal(me.statusCode, 200);
  });
});
