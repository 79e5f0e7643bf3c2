import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The multipart body of an upload route, for the OpenAPI document only: the handler reads the upload as a stream,
     * so there is no parsed body for a schema to validate, and the handler enforces what this describes.
     */
    multipartBody?: object;
  }
}

/** Where the OpenAPI document is served as JSON (the UI at /api/docs reads the same document). */
export const OPENAPI_DOCUMENT_URL = '/api/openapi.json';

/**
 * The schemas' `errorMessage` (the reason the error handler appends to a field's name) is not an OpenAPI keyword: the
 * published document carries it as the extension `x-error-message`. Keys of a `properties` map are field names, not
 * keywords, and are kept as they are.
 */
function withErrorMessagesAsExtensions<Node>(node: Node, keysAreFieldNames = false): Node {
  if (Array.isArray(node)) return node.map((item: unknown) => withErrorMessagesAsExtensions(item)) as Node;
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [
      !keysAreFieldNames && key === 'errorMessage' ? 'x-error-message' : key,
      withErrorMessagesAsExtensions(value, !keysAreFieldNames && key === 'properties'),
    ]),
  ) as Node;
}

export default fp(
  async function swaggerPlugin(app, options: { serveDocs: boolean }) {
    await app.register(swagger, {
      openapi: {
        openapi: '3.0.3',
        info: {
          title: 'Time Wallet API',
          description:
            'REST API of Time Wallet. Send `Authorization: Bearer <token>` and `X-Time-Zone: <IANA zone>`; local days and weeks (Sunday to Saturday) are computed in that zone.',
          version: '1.0.0',
        },
        servers: [{ url: '/' }],
        components: {
          securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
        },
      },
      // Documents the header every API route reads without making the validator reject an unknown zone, and the
      // body of an upload route (see multipartBody).
      transform: ({ schema, url, route }) => {
        if (!url.startsWith('/api/') || url.startsWith('/api/docs')) return { schema, url };
        const headers = {
          type: 'object',
          properties: {
            'x-time-zone': {
              type: 'string',
              description: 'IANA time zone for local days, e.g. Europe/Paris; an unknown zone is ignored',
            },
          },
        };
        const body = route.config?.multipartBody;
        return { schema: { ...schema, headers, ...(body ? { body } : {}) }, url };
      },
      transformObject: (documentObject) =>
        'openapiObject' in documentObject
          ? withErrorMessagesAsExtensions(documentObject.openapiObject)
          : documentObject.swaggerObject,
      refResolver: {
        buildLocalReference: (json, _baseUri, _fragment, index) =>
          typeof json.$id === 'string' ? json.$id : `def-${index}`,
      },
    });
    // The document is still built when it is not served: `npm run openapi -w server` reads it from app.swagger().
    if (!options.serveDocs) return;
    // No staticCSP: the UI keeps the API's own policy. swagger-ui's would let its origin frame the page, and the UI
    // needs nothing the API's refuses (its scripts and styles are files; no validator is called).
    await app.register(swaggerUi, { routePrefix: '/api/docs' });

    // The same document as /api/docs/json, at a stable address for tools (the client's type generator reads it
    // through `npm run openapi -w server`, without a running server).
    app.get(OPENAPI_DOCUMENT_URL, { schema: { hide: true }, config: { public: true } }, async () =>
      app.swagger(),
    );
  },
  { name: 'swagger' },
);
