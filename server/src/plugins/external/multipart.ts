import multipart from '@fastify/multipart';
import fp from 'fastify-plugin';

export default fp(
  async function multipartPlugin(app, options: { fileSizeLimit: number }) {
    await app.register(multipart, {
      limits: { fileSize: options.fileSizeLimit, files: 1, fields: 10, parts: 20, fieldSize: 1024 },
      throwFileSizeLimit: true,
    });
  },
  { name: 'multipart' },
);
