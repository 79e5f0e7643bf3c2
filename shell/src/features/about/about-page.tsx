import { useId } from 'react';
import { Button, Card, Page } from '@time-wallet/shared-ui';
// Only `version` is read, and webpack keeps only what is read of a JSON module: the shell's version is its package's,
// written once, by `lerna version`.
import shellPackage from '../../../package.json';
import { REMOTES } from '../../lib/pages';
import { useRemoteVersions, type VersionCheck } from './remote-versions';
import styles from './about-page.module.css';

export const SHELL_VERSION: string = shellPackage.version;

function VersionCell({ check }: { check: VersionCheck }) {
  switch (check.state) {
    case 'version':
      return <span className={styles.version}>{check.version}</span>;
    case 'checking':
      return <span className={styles.muted}>Checking&hellip;</span>;
    case 'unreachable':
      return <span className={styles.problem}>Not reachable</span>;
    case 'unversioned':
      return <span className={styles.problem}>No version</span>;
    case 'unconfigured':
      return <span className={styles.problem}>Not configured</span>;
  }
}

/** One sentence on the whole table, announced when the checks end (the table itself changes silently). */
function summaryOf(checks: Record<string, VersionCheck>, checking: boolean): string {
  if (checking) return 'Asking each part for the version it serves\u2026';
  const missing = REMOTES.filter(({ federationName }) => checks[federationName]?.state !== 'version');
  if (missing.length === 0) return `Every part answered: the shell and ${REMOTES.length} remotes.`;
  const names = missing.map(({ dir }) => dir).join(', ');
  return missing.length === 1
    ? `${names} did not tell its version: its pages may not load until it does.`
    : `${names} did not tell their versions: their pages may not load until they do.`;
}

/**
 * `/app/about`: the release of each part of the product serving this page now. The shell's version is built in; each
 * remote's comes from its live manifest at the URL the runtime config gives (the registry lists the remotes), so a
 * remote deployed since this tab loaded shows its new version.
 */
export function AboutPage() {
  const titleId = useId();
  const tableTitleId = useId();
  const { checks, checking, checkAgain } = useRemoteVersions(REMOTES);

  return (
    <Page
      titleId={titleId}
      title="About Time Wallet"
      subtitle="Each part of Time Wallet is released on its own by its team. These are the versions serving you now."
    >
      <Card
        as="section"
        headingLevel={2}
        title={<span id={tableTitleId}>Versions</span>}
        aria-labelledby={tableTitleId}
      >
        <table className={styles.table} aria-labelledby={tableTitleId} aria-busy={checking || undefined}>
          <thead>
            <tr>
              <th scope="col">Part</th>
              <th scope="col">Serves</th>
              <th scope="col">Version</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row">shell</th>
              <td>Navigation, sign-in guard and this page</td>
              <td>
                <span className={styles.version}>{SHELL_VERSION}</span>
              </td>
            </tr>
            {REMOTES.map(({ dir, federationName, pageTitles }) => (
              <tr key={federationName}>
                <th scope="row">{dir}</th>
                <td>{pageTitles.join(', ')}</td>
                <td>
                  <VersionCell check={checks[federationName] ?? { state: 'checking' }} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <p role="status" className={styles.summary}>
          {summaryOf(checks, checking)}
        </p>
        <div>
          <Button variant="secondary" onClick={checkAgain}>
            Check again
          </Button>
        </div>
      </Card>
    </Page>
  );
}
