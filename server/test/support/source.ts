// test/run.mjs runs the suites from a compiled copy of src/ and test/ (dist-test/run-<pid>/); `node --import tsx --test`
// runs them from the TypeScript. What a test starts itself, and what it reads of the repository, follows from that here.
import { existsSync } from 'node:fs';
import path from 'node:path';

/** Whether this is the compiled copy, whose src/ is already a build of the server (JavaScript, as dist/ holds). */
export const compiledCopy = import.meta.url.endsWith('.js');

/** The server's directory as this test sees it: server/, or the compiled copy of it. */
export const serverDir = path.resolve(import.meta.dirname, '..', '..');

/**
 * A module of the server as a child process runs it, from `src/server` or `src/config`: Node's arguments before the
 * module (tsx's loader for the TypeScript) and the module's path.
 */
export function serverModule(withoutExtension: string): { nodeArgs: string[]; file: string } {
  return compiledCopy
    ? { nodeArgs: [], file: path.join(serverDir, `${withoutExtension}.js`) }
    : { nodeArgs: ['--import', 'tsx'], file: path.join(serverDir, `${withoutExtension}.ts`) };
}

/** The repository's own files (sources, docs), wherever the test runs from: the nearest folder up with lerna.json. */
export function repositoryRoot(): string {
  for (let dir = serverDir; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'lerna.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no lerna.json above ${serverDir}`);
  }
}
