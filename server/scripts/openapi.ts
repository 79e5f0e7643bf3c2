// Prints the API's OpenAPI document as JSON without listening on a port: the app is built over a throw-away
// in-memory database, asked for its document, and closed. `npm run api:types` derives the client's types from it.
// No environment is read and nothing is written (a JWT secret is made up), so the document depends on the code only.
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { buildApp } from '../src/app.js';

const app = await buildApp({
  env: {},
  config: {
    database: { kind: 'sqlite', file: ':memory:' },
    dataDir: tmpdir(),
    jwtSecret: randomBytes(32).toString('hex'),
  },
  logger: false,
});
await app.ready();
process.stdout.write(`${JSON.stringify(app.swagger(), null, 2)}\n`);
await app.close();
