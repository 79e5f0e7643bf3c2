import { buildAll } from './lib.mjs';

console.log('Building every app for production');
await buildAll({ force: !process.argv.includes('--if-stale') });
