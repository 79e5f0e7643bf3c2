import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';

export default fp(
  async function swaggerPlugin(app) {
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
      // Documents the header every API route reads without making the validator reject an unknown zone.
      transform: ({ schema, url }) => {
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
        return { schema: { ...schema, headers }, url };
      },
      refResolver: {
        buildLocalReference: (json, _baseUri, _fragment, index) =>
          typeof json.$id === 'string' ? json.$id : `def-${index}`,
      },
    });
    await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  },
  { name: 'swagger' },
);
