import fp from 'fastify-plugin';

/** Shared by every resource's autohooks: everything under that prefix needs a live session. */
export default fp(async function requireSignIn(app) {
  app.addHook('onRequest', app.authenticate);
});
