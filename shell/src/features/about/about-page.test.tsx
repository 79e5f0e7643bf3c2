import fs from 'node:fs';
import path from 'node:path';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setRuntimeConfig } from '@time-wallet/api';
import {
  deferred,
  mockApi,
  NETWORK_FAILURE,
  resetTestEnvironment,
  TEST_API_BASE_URL,
  type MockHandler,
} from '@time-wallet/api/testing';
import { REMOTES } from '../../lib/pages';
import { renderAt } from '../../testing/render';
import { AboutPage } from './about-page';

const manifestUrl = (federationName: string) => `http://${federationName}.test/mf-manifest.json`;
const manifestOf = (buildVersion: string) => ({ metaData: { buildInfo: { buildVersion } } });

/** The runtime config of a deployment serving every registry remote (or those named) from its own origin. */
function configureRemotes(names = REMOTES.map((remote) => remote.federationName)) {
  setRuntimeConfig({
    apiBaseUrl: TEST_API_BASE_URL,
    remotes: Object.fromEntries(names.map((name) => [name, manifestUrl(name)])),
  });
}

/** Each remote's manifest answers as given; any remote not named answers version 1.0.0. */
function serveManifests(answers: Record<string, MockHandler> = {}) {
  return mockApi(
    Object.fromEntries(
      REMOTES.map(({ federationName }) => [
        `GET ${manifestUrl(federationName)}`,
        answers[federationName] ?? { body: manifestOf('1.0.0') },
      ]),
    ),
  );
}

const table = () => screen.getByRole('table', { name: 'Versions' });
const versionOf = (part: string) => {
  const row = within(table()).getByRole('rowheader', { name: part }).closest('tr')!;
  return within(row).getAllByRole('cell').at(-1)!.textContent;
};

describe('AboutPage', () => {
  beforeEach(() => {
    resetTestEnvironment();
    configureRemotes();
  });
  afterEach(() => jest.restoreAllMocks());

  it("lists the shell's own version, from its package.json, and every remote of the registry with its pages", async () => {
    serveManifests();
    renderAt(<AboutPage />, '/app/about');

    expect(screen.getByRole('heading', { level: 1, name: 'About Time Wallet' })).toBeInTheDocument();
    const shellPackage = JSON.parse(fs.readFileSync(path.join(__dirname, '../../../package.json'), 'utf8'));
    expect(versionOf('shell')).toBe(shellPackage.version);
    expect(
      within(table())
        .getAllByRole('rowheader')
        .map((header) => header.textContent),
    ).toEqual(['shell', 'mfe-auth', 'mfe-wallet', 'mfe-calendar', 'mfe-analytics', 'mfe-tags']);
    const tagsRow = within(table()).getByRole('rowheader', { name: 'mfe-tags' }).closest('tr')!;
    expect(within(tagsRow).getByRole('cell', { name: 'Edit Tags' })).toBeInTheDocument();
    await screen.findByText('Every part answered: the shell and 5 remotes.');
  });

  it('says each remote is being checked until its manifest answers, then shows its version', async () => {
    const tags = deferred<{ body: unknown }>();
    serveManifests({ mfe_tags: () => tags.promise, mfe_wallet: { body: manifestOf('2.3.0') } });
    renderAt(<AboutPage />, '/app/about');

    expect(await screen.findByText('2.3.0')).toBeInTheDocument();
    expect(versionOf('mfe-tags')).toBe('Checking…');
    expect(table()).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('status')).toHaveTextContent('Asking each part for the version it serves');

    tags.resolve({ body: manifestOf('1.4.0') });

    await waitFor(() => expect(versionOf('mfe-tags')).toBe('1.4.0'));
    expect(table()).not.toHaveAttribute('aria-busy');
    expect(screen.getByRole('status')).toHaveTextContent('Every part answered');
  });

  it('asks each live manifest afresh, at the URL the runtime config gives', async () => {
    const { fetchSpy } = serveManifests();
    renderAt(<AboutPage />, '/app/about');
    await screen.findByText('Every part answered: the shell and 5 remotes.');

    const asked = fetchSpy.mock.calls.map(([url, init]) => [String(url), init?.cache]);
    expect(asked).toEqual(REMOTES.map(({ federationName }) => [manifestUrl(federationName), 'no-cache']));
  });

  it('says which remotes are not reachable, answer no version or are not configured', async () => {
    configureRemotes(['mfe_auth', 'mfe_wallet', 'mfe_calendar', 'mfe_analytics']);
    const { requests } = serveManifests({
      mfe_auth: NETWORK_FAILURE,
      mfe_wallet: { status: 503, body: { message: 'down' } },
      mfe_calendar: { body: { name: 'mfe_calendar' } },
    });
    renderAt(<AboutPage />, '/app/about');

    await waitFor(() => expect(table()).not.toHaveAttribute('aria-busy'));
    expect(versionOf('mfe-auth')).toBe('Not reachable');
    expect(versionOf('mfe-wallet')).toBe('Not reachable');
    expect(versionOf('mfe-calendar')).toBe('No version');
    expect(versionOf('mfe-analytics')).toBe('1.0.0');
    expect(versionOf('mfe-tags')).toBe('Not configured');
    expect(requests.map((request) => request.url)).not.toContain(manifestUrl('mfe_tags'));
    expect(screen.getByRole('status')).toHaveTextContent(
      'mfe-auth, mfe-wallet, mfe-calendar, mfe-tags did not tell their versions: their pages may not load until they do.',
    );
  });

  it('checks again from the keyboard, and shows a remote that came back', async () => {
    let tagsUp = false;
    serveManifests({ mfe_tags: () => (tagsUp ? { body: manifestOf('1.5.0') } : NETWORK_FAILURE) });
    renderAt(<AboutPage />, '/app/about');
    await waitFor(() => expect(versionOf('mfe-tags')).toBe('Not reachable'));
    expect(screen.getByRole('status')).toHaveTextContent(
      'mfe-tags did not tell its version: its pages may not load until it does.',
    );

    tagsUp = true;
    screen.getByRole('button', { name: 'Check again' }).focus();
    await userEvent.keyboard('{Enter}');

    await waitFor(() => expect(versionOf('mfe-tags')).toBe('1.5.0'));
    expect(screen.getByRole('button', { name: 'Check again' })).toHaveFocus();
    expect(screen.getByRole('status')).toHaveTextContent('Every part answered');
  });
});
