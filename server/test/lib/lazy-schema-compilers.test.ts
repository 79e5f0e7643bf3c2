import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fastifySchemaCompilers, type SchemaCompilers } from '../../src/lib/lazy-schema-compilers.js';
import { buildTestApp, send, signUp } from '../helpers.js';

type Builder = (externalSchemas: unknown, options: unknown) => (route: { url?: string }) => unknown;

/** Fastify's compilers, counting what they build: contexts (one per set of shared schemas) and each route's schema. */
function countingCompilers() {
  const counts = { contexts: 0, validators: 0, serializers: 0, urls: new Set<string>() };
  const base = fastifySchemaCompilers();
  const counted =
    (builder: Builder, kind: 'validators' | 'serializers') =>
    (externalSchemas: unknown, options: unknown) => {
      counts.contexts += 1;
      const compile = builder(externalSchemas, options);
      return (route: { url?: string }) => {
        counts[kind] += 1;
        if (route.url) counts.urls.add(route.url);
        return compile(route);
      };
    };
  const compilers = {
    buildValidator: counted(base.buildValidator as unknown as Builder, 'validators'),
    buildSerializer: counted(base.buildSerializer as unknown as Builder, 'serializers'),
  } as unknown as SchemaCompilers;
  return { counts, compilers };
}

/** Requests a client may get wrong, each answered by a route's validator; and answers each route's serializer writes. */
const REQUESTS: Array<[method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown]> = [
  ['POST', '/api/categories', { name: 'Work', color: '#123456' }],
  ['POST', '/api/tasks', { title: 'Plan', startHHMM: '09:00', endHHMM: '10:30', date: '2026-03-11' }],
  ['GET', '/api/categories'],
  ['GET', '/api/users/me'],
  ['POST', '/api/categories', { name: '', color: 'red' }],
  ['POST', '/api/categories', { name: 'Work', color: '#123456', extra: true }],
  ['POST', '/api/tasks', { title: 'x', startHHMM: '25:00', endHHMM: '10:00', date: '2026-03-11' }],
  ['GET', '/api/tasks?date=yesterday'],
  ['GET', '/api/tasks?date=2026-03-11'],
  ['PATCH', '/api/users/me', { timeWalletHours: 'many' }],
  ['GET', '/api/aggregation/analytics/weekly?start=2026-03-09'],
  ['GET', '/api/aggregation/analytics/weekly?date=2026-03-11'],
];

/** An answer with what differs between two accounts (their ids, the moment rows were written) left out. */
function withoutIdentity(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIdentity);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, field]) => [
      key,
      /^(_id|id|\w+Id|createdAt|updatedAt)$/.test(key) ? typeof field : withoutIdentity(field),
    ]),
  );
}

describe('schemas compiled on first use', () => {
  test('every route’s schemas compile when the app is built to compile them at start', async () => {
    const { counts, compilers } = countingCompilers();
    const { app } = await buildTestApp({
      schemas: { schemaCompilers: compilers, compileSchemasAtStart: true },
    });
    // ready() throws FST_ERR_SCH_VALIDATION_BUILD or FST_ERR_SCH_SERIALIZATION_BUILD for a schema that does not compile.
    await app.ready();
    assert.ok(counts.validators > 50, `${counts.validators} validators`);
    assert.ok(counts.serializers > 100, `${counts.serializers} serializers`);
  });

  test('a started app has compiled nothing; a request compiles its own route’s schemas, once', async () => {
    const { counts, compilers } = countingCompilers();
    const { app } = await buildTestApp({ schemas: { schemaCompilers: compilers } });
    await app.ready();
    assert.deepEqual(
      { ...counts, urls: [...counts.urls] },
      { contexts: 0, validators: 0, serializers: 0, urls: [] },
    );

    const { headers } = await signUp(app);
    await send(app, headers, 'GET', '/api/tasks?date=2026-03-11');
    assert.deepEqual([...counts.urls].sort(), ['/api/auth/login', '/api/auth/register/user', '/api/tasks']);
    const after = { ...counts };
    await send(app, headers, 'GET', '/api/tasks?date=2026-03-12');
    await send(app, headers, 'GET', '/api/tasks?date=nope');
    assert.deepEqual({ ...counts }, after, 'the same route again compiles nothing more');
  });

  test('answers are the same as from schemas compiled at start, refusals and their messages included', async () => {
    const answers = async (compileSchemasAtStart: boolean) => {
      const { app } = await buildTestApp({ schemas: { compileSchemasAtStart } });
      const { headers } = await signUp(app, { username: 'sameAnswers' });
      const seen = [];
      for (const [method, url, body] of REQUESTS) {
        const response = await send(app, headers, method, url, body as never);
        seen.push({
          request: `${method} ${url}`,
          status: response.statusCode,
          body: withoutIdentity(response.json()),
        });
      }
      return seen;
    };
    const late = await answers(false);
    assert.deepEqual(late, await answers(true));
    const statuses = new Set(late.map((answer) => answer.status));
    assert.ok(statuses.has(200) && statuses.has(400), `statuses ${[...statuses].join(', ')}`);
  });
});
