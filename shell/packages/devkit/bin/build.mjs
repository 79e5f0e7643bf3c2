import { parseArgs } from 'node:util';
import { buildAll, buildApp, frontEndApps, markBuilt } from './lib.mjs';

// npm run build                       every app and the API
// npm run build -- --if-stale         only what changed since its last build
// npm run build -- --only mfe-wallet  one app (a team redeploying its remote)
const { values } = parseArgs({ options: { only: { type: 'string' }, 'if-stale': { type: 'boolean' } } });

if (values.only) {
  const app = frontEndApps.find((candidate) => candidate.dir === values.only);
  if (!app)
    throw new Error(`--only takes one of: ${frontEndApps.map((candidate) => candidate.dir).join(', ')}`);
  const seconds = await buildApp(app);
  markBuilt(app);
  console.log(`${app.dir}: built in ${seconds.toFixed(1)} s`);
} else {
  console.log('Building every app for production');
  await buildAll({ force: !values['if-stale'] });
}
