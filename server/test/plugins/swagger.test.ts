import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { validate } from '@readme/openapi-parser';
import { loadConfig } from '../../src/config.js';
import { OPENAPI_DOCUMENT_URL } from '../../src/plugins/external/swagger.js';
import { buildTestApp } from '../helpers.js';

const { app } = await buildTestApp();
const response = await app.inject({ method: 'GET', url: '/api/openapi.json' });
const document = response.json();

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** The value a local reference ('#/components/schemas/User') points at, or undefined. */
function resolve(reference: string): unknown {
  if (!reference.startsWith('#/')) return undefined;
  return reference
    .slice(2)
    .split('/')
    .map((segment) => decodeURIComponent(segment).replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<unknown>(
      (node, segment) =>
        node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[segment] : undefined,
      document,
    );
}

function referencesIn(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) referencesIn(item, found);
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') found.push(value);
      else referencesIn(value, found);
    }
  }
  return found;
}

const operation = (path: string, method: string) => document.paths[path]?.[method];
const jsonBody = (path: string, method: string) =>
  operation(path, method)?.requestBody?.content?.['application/json']?.schema;

describe('GET /api/openapi.json', () => {
  test('serves the OpenAPI 3 document without a session, the same one the UI at /api/docs reads', async () => {
    assert.equal(response.statusCode, 200);
    assert.match(response.headers['content-type'] as string, /^application\/json/);
    assert.match(document.openapi, /^3\.\d+\.\d+$/);
    const forTheUi = await app.inject({ method: 'GET', url: '/api/docs/json' });
    assert.deepEqual(forTheUi.json(), document);
  });

  test('every operation of every path declares its responses', () => {
    const paths = Object.entries(document.paths as Record<string, Record<string, { responses?: object }>>);
    assert.ok(paths.length > 20, `only ${paths.length} paths`);
    for (const [path, item] of paths) {
      const operations = Object.entries(item).filter(([method]) => METHODS.includes(method));
      assert.ok(operations.length > 0, `${path} has no operation`);
      for (const [method, { responses }] of operations) {
        assert.ok(responses && Object.keys(responses).length > 0, `${method.toUpperCase()} ${path}`);
      }
    }
  });

  test('every $ref resolves within the document', () => {
    const references = referencesIn(document);
    assert.ok(references.length > 0);
    for (const reference of new Set(references)) {
      assert.notEqual(resolve(reference), undefined, `${reference} resolves to nothing`);
    }
  });

  test('validates against the OpenAPI 3 specification', async () => {
    const result = await validate(structuredClone(document));
    assert.deepEqual(
      result.valid ? [] : result.errors.map((error) => error.message),
      [],
      'the document is not valid OpenAPI',
    );
  });

  test('states the rules the server enforces and the product defaults the client derives from it', () => {
    const registration = jsonBody('/api/auth/register/user', 'post');
    assert.deepEqual(registration.required, ['username', 'email', 'password', 'name']);
    assert.equal(registration.additionalProperties, false);
    const { username, email, password, name } = registration.properties;
    assert.deepEqual([username.minLength, username.maxLength], [3, 50]);
    assert.deepEqual([email.minLength, email.maxLength], [5, 254]);
    assert.deepEqual([password.minLength, password.maxLength], [8, 100]);
    assert.deepEqual([name.minLength, name.maxLength], [5, 100]);
    for (const field of [username, email, password]) assert.equal(typeof field.pattern, 'string');
    assert.deepEqual(jsonBody('/api/auth/change-password', 'post').required, [
      'currentPassword',
      'newPassword',
    ]);
    assert.deepEqual(jsonBody('/api/auth/reset-password', 'post').required, ['token', 'password']);
    assert.deepEqual(jsonBody('/api/auth/forgot-password', 'post').required, ['email']);

    for (const path of ['/api/tasks/', '/api/events/']) {
      assert.equal(jsonBody(path, 'post').properties.title.maxLength, 200, path);
    }
    assert.equal(document.components.schemas.User.properties.budgetHours.default, 15);
    assert.equal(document.components.schemas.Category.properties.color.default, '#2D967C');

    const upload = operation('/api/events/import', 'post');
    const file = upload.requestBody.content['multipart/form-data'].schema.properties.file;
    assert.deepEqual([file.type, file.format], ['string', 'binary']);
    assert.ok(upload.responses['200'] && upload.responses['413'] && upload.responses['415']);
  });
});

describe('the docs at /api/docs', () => {
  const DOCS_PAGES = [
    '/api/docs',
    '/api/docs/static/swagger-ui-bundle.js',
    '/api/docs/static/swagger-initializer.js',
    '/api/docs/static/swagger-ui.css',
    '/api/docs/json',
  ];
  // What helmet and CORS send on every answer of the API: the docs must not weaken any of them.
  const SECURITY_HEADERS = [
    'content-security-policy',
    'x-frame-options',
    'cross-origin-opener-policy',
    'cross-origin-resource-policy',
    'referrer-policy',
    'x-content-type-options',
    'strict-transport-security',
    'x-permitted-cross-domain-policies',
  ];
  const securityHeadersOf = async (url: string) => {
    const response = await app.inject({ method: 'GET', url });
    assert.equal(response.statusCode, 200, `${url}: ${response.statusCode}`);
    return Object.fromEntries(SECURITY_HEADERS.map((name) => [name, response.headers[name]]));
  };

  test("the UI and its assets carry the API's own headers, its CSP with frame-ancestors 'none' included", async () => {
    const api = await securityHeadersOf('/api/health');
    assert.match(String(api['content-security-policy']), /frame-ancestors 'none'/);
    for (const url of DOCS_PAGES) assert.deepEqual(await securityHeadersOf(url), api, url);
  });

  test('API_DOCS=false turns the UI and the document off: 404 with the usual body', async () => {
    const { app: withoutDocs } = await buildTestApp({ env: { API_DOCS: 'false' } });
    for (const url of [...DOCS_PAGES, '/api/docs/', OPENAPI_DOCUMENT_URL]) {
      const response = await withoutDocs.inject({ method: 'GET', url });
      assert.equal(response.statusCode, 404, url);
      assert.deepEqual(response.json(), { message: 'Not found' }, url);
    }
    assert.equal((await withoutDocs.inject({ method: 'GET', url: '/api/health' })).statusCode, 200);
    assert.equal(loadConfig({ JWT_SECRET: 'x'.repeat(40) }).apiDocs, true);
    assert.equal(loadConfig({ JWT_SECRET: 'x'.repeat(40), API_DOCS: 'true' }).apiDocs, true);
    assert.throws(() => loadConfig({ JWT_SECRET: 'x'.repeat(40), API_DOCS: 'off' }), /API_DOCS/);
  });
});
