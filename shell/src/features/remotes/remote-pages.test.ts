import fs from 'node:fs';
import path from 'node:path';
import { REMOTE_PAGES } from './remote-pages';

interface RemoteApp {
  dir: string;
  federationName: string;
  exposes: Record<string, string>;
}

const apps = jest.requireActual<{ repoRoot: string; remotes: RemoteApp[] }>(
  '../../../packages/devkit/apps.cjs',
);

describe('the pages the shell routes to', () => {
  it.each(Object.entries(REMOTE_PAGES))(
    '%s is exposed by the remote it names',
    (_page, { remote, expose }) => {
      const app = apps.remotes.find((candidate) => candidate.federationName === remote);
      expect(app).toBeDefined();
      expect(Object.keys(app!.exposes)).toContain(`./${expose}`);
    },
  );

  const exposedFiles = apps.remotes.flatMap((app) =>
    Object.entries(app.exposes).map(([expose, file]) => [`${app.dir} ${expose}`, app.dir, file] as const),
  );

  it.each(exposedFiles)('%s is a module on disk that exports a default page', (_name, dir, file) => {
    const absolute = path.resolve(apps.repoRoot, dir, file);
    expect(fs.existsSync(absolute)).toBe(true);
    expect(fs.readFileSync(absolute, 'utf8')).toMatch(/export default \w+/);
  });
});
