// One API start-up (buildApp: configuration, JWT secret, database, migrations) without listening, begun at an instant
// the parent names, so that several of these processes race for one DATA_DIR. Run by concurrent-start.test.ts with
// the built app's path and the DATA_DIR; prints `ready` once loaded, waits for `go <epoch ms>` on stdin, and prints the
// JWT secret it ended up with as JSON.
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

const [appModule, dataDir] = process.argv.slice(2);
// The slow part (loading Fastify and every plugin) happens before the start signal, so the races begin together.
const { buildApp } = await import(pathToFileURL(appModule).href);
process.stdout.write('ready\n');
const lines = createInterface({ input: process.stdin });
const [command, startAt] = (await new Promise((resolve) => lines.once('line', resolve))).split(' ');
lines.close();
if (command !== 'go') process.exit(2);
while (Date.now() < Number(startAt)) {
  // Spin: timers are not precise enough to line the processes up.
}
try {
  const app = await buildApp({ env: { DATA_DIR: dataDir }, logger: false });
  await app.ready();
  process.stdout.write(`${JSON.stringify({ secret: app.config.jwtSecret })}\n`);
  await app.close();
} catch (error) {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  if (error instanceof Error && error.cause) process.stderr.write(`cause: ${String(error.cause)}\n`);
  process.exit(1);
}
