// A/B of two front-end builds under Lighthouse, alternated round by round in one run so a busy spell on this shared
// machine falls on both. A and B are folders holding a copy of each app's dist (<dir>/shell, <dir>/mfe-auth...; an
// app without one is served from its dist); B left out is the builds in place.
// Usage: E2E_PORT_OFFSET=800 node e2e/bench/ab-lighthouse.mjs --a /tmp/base-dist --rounds 3 --pages login,wallet
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createRequire } from 'node:module';
import { startStack } from '../support/stack.mjs';
import { median, runLighthouse } from './lighthouse.mjs';

const require = createRequire(import.meta.url);
const { remotes } = require('@time-wallet/devkit/apps');

const { values } = parseArgs({
  options: {
    a: { type: 'string' },
    b: { type: 'string' },
    rounds: { type: 'string', default: '3' },
    pages: { type: 'string', default: 'login,wallet' },
    presets: { type: 'string', default: 'mobile' },
  },
});
if (!values.a) throw new Error('--a <folder of dist copies> is required');
const pages = values.pages.split(',');
const presets = values.presets.split(',');

function distDirsIn(folder) {
  if (!folder) return {};
  const dirs = { shell: path.join(folder, 'shell') };
  for (const remote of remotes) dirs[remote.federationName] = path.join(folder, remote.dir);
  for (const [name, dir] of Object.entries(dirs)) if (!fs.existsSync(dir)) delete dirs[name];
  return dirs;
}
const distDirs = { A: distDirsIn(values.a), B: distDirsIn(values.b) };

const results = { A: [], B: [] };
for (let round = 1; round <= Number(values.rounds); round += 1) {
  // A first on odd rounds, B first on even ones.
  const order = round % 2 ? ['A', 'B'] : ['B', 'A'];
  for (const variant of order) {
    const stack = await startStack({ distDirs: distDirs[variant] });
    try {
      const { rows } = await runLighthouse({
        shellUrl: stack.shellUrl,
        apiBaseUrl: stack.apiBaseUrl,
        runs: 1,
        pages,
        presets,
      });
      for (const row of rows) {
        results[variant].push(row);
        console.log(
          `round ${round} ${variant} ${row.page}/${row.preset}: score ${row.score}, LCP ${Math.round(row.lcpMs)}, ` +
            `TBT ${Math.round(row.tbtMs)}, CLS ${row.cls?.toFixed(3)} ${row.lcpElement ?? ''} ${row.problems.join('; ')}`,
        );
      }
    } finally {
      await stack.stop();
    }
  }
}

console.log(
  '\n| page | preset | variant | runs | score | FCP ms | LCP ms | TBT ms | CLS |\n|---|---|---|---|---|---|---|---|---|',
);
for (const page of pages) {
  for (const preset of presets) {
    for (const variant of ['A', 'B']) {
      const rows = results[variant].filter(
        (row) => row.page === page && row.preset === preset && row.runs > 0,
      );
      const m = (key) => median(rows.map((row) => row[key]));
      const f = (value) => (value === null ? '-' : String(Math.round(value)));
      console.log(
        `| ${page} | ${preset} | ${variant} | ${rows.length} | ${f(m('score'))} | ${f(m('fcpMs'))} | ${f(m('lcpMs'))} | ` +
          `${f(m('tbtMs'))} | ${m('cls')?.toFixed(3) ?? '-'} |`,
      );
    }
  }
}
