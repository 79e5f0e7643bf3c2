import fs from 'node:fs';
import path from 'node:path';
import { PAGES } from './pages';

interface RemoteApp {
  dir: string;
  federationName: string;
  exposes: Record<string, string>;
  pages: Array<{ expose: string }>;
}

const apps = jest.requireActual<{ repoRoot: string; remotes: RemoteApp[] }>('@time-wallet/devkit/apps');
const { standaloneBootstrapSource } = jest.requireActual<{
  standaloneBootstrapSource: (remote: RemoteApp) => string;
}>('@time-wallet/devkit/standalone-entry');

describe('the pages the shell routes to', () => {
  it.each(PAGES.map((page) => [page.name, page] as const))(
    '%s is exposed by the remote it names',
    (_page, { remote, expose }) => {
      const app = apps.remotes.find((candidate) => candidate.federationName === remote);
      expect(app).toBeDefined();
      expect(Object.keys(app!.exposes)).toContain(`./${expose}`);
    },
  );

  it('are every page the remotes expose, and no other', () => {
    const exposed = apps.remotes.flatMap((app) =>
      Object.keys(app.exposes).map((expose) => `${app.federationName}/${expose.slice(2)}`),
    );
    expect(PAGES.map((page) => `${page.remote}/${page.expose}`).sort()).toEqual(exposed.sort());
  });

  const exposedFiles = apps.remotes.flatMap((app) =>
    Object.entries(app.exposes).map(([expose, file]) => [`${app.dir} ${expose}`, app.dir, file] as const),
  );

  it.each(exposedFiles)('%s is a module on disk that exports a default page', (_name, dir, file) => {
    const absolute = path.resolve(apps.repoRoot, dir, file);
    expect(fs.existsSync(absolute)).toBe(true);
    expect(fs.readFileSync(absolute, 'utf8')).toMatch(/export default \w+/);
  });

  it.each(apps.remotes.map((app) => [app.dir, app] as const))(
    "%s's standalone host draws each of its registry pages on the page's path",
    (_dir, app) => {
      const source = standaloneBootstrapSource(app);
      for (const page of PAGES.filter((candidate) => candidate.remote === app.federationName)) {
        expect(source).toContain(JSON.stringify(page.path));
        expect(source).toContain(
          JSON.stringify(path.join(apps.repoRoot, app.dir, app.exposes[`./${page.expose}`]!)),
        );
      }
      expect(source.match(/\{ path: /g)).toHaveLength(app.pages.length);
    },
  );
});
