const fs = require('node:fs');

/** Dev servers: CORS for the shell's origin, SPA fallback, and the shell's runtime config from a file. */
function devServerFor(app, port, { standalone }) {
  const serveRuntimeConfig = (middlewares, server) => {
    const configFile = process.env.RUNTIME_CONFIG_FILE;
    if (app.kind === 'host' && configFile) {
      server.app.get('/config.json', (_req, res) => {
        res.set('Cache-Control', 'no-cache');
        res.type('application/json').send(fs.readFileSync(configFile, 'utf8'));
      });
    }
    return middlewares;
  };
  return {
    port,
    host: 'localhost',
    hot: false,
    liveReload: true,
    historyApiFallback: app.kind === 'host' || standalone,
    headers: { 'Access-Control-Allow-Origin': '*' },
    client: { overlay: { warnings: false, errors: true } },
    setupMiddlewares: serveRuntimeConfig,
  };
}

module.exports = { devServerFor };
