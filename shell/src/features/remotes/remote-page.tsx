import { Component, lazy, Suspense, useState, type ErrorInfo, type ReactNode } from 'react';
import { Link } from '@time-wallet/api/router';
import { Button, Skeleton } from '@time-wallet/shared-ui';
import { loadRemotePage } from './federation';
import { REMOTE_PAGES, type RemotePageName } from './remote-pages';
import styles from './remote-page.module.css';

interface BoundaryProps {
  fallback: (error: Error) => ReactNode;
  children: ReactNode;
}

class RemoteErrorBoundary extends Component<BoundaryProps, { error: Error | null }> {
  override state = { error: null as Error | null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('A remote page failed', error, info.componentStack);
  }

  override render() {
    return this.state.error ? this.props.fallback(this.state.error) : this.props.children;
  }
}

// Pages drawn without the side navigation: their fallback is the whole screen, so it offers a way out too.
const WAY_OUT: Partial<Record<RemotePageName, { to: string; label: string }>> = {
  login: { to: '/', label: 'Back to home' },
  register: { to: '/', label: 'Back to home' },
  forgotPassword: { to: '/', label: 'Back to home' },
  resetPassword: { to: '/', label: 'Back to home' },
  calendar: { to: '/app/wallet', label: 'Back to Wallet' },
  logout: { to: '/app/wallet', label: 'Back to Wallet' },
};

function PageSkeleton() {
  return (
    <div className={styles.skeleton} aria-busy="true" aria-label="Loading page">
      <Skeleton width="40%" height="2rem" />
      <Skeleton width="60%" height="1rem" />
      <Skeleton height="8rem" />
    </div>
  );
}

/**
 * One remote's page in its slot: a skeleton while it loads, and if its remote is down or throws, a fallback whose
 * Retry loads the remote again without reloading the page. The rest of the shell keeps working either way.
 */
function RemoteSlot({ name }: { name: RemotePageName }) {
  // Held above the Suspense boundary: a component that suspends before its first commit keeps no state.
  const [slot, setSlot] = useState(() => ({
    attempt: 0,
    Page: lazy(() => loadRemotePage(REMOTE_PAGES[name])),
  }));
  const retry = () =>
    setSlot(({ attempt }) => ({
      attempt: attempt + 1,
      Page: lazy(() => loadRemotePage(REMOTE_PAGES[name], { fresh: true })),
    }));

  const wayOut = WAY_OUT[name];

  return (
    <RemoteErrorBoundary
      key={slot.attempt}
      fallback={() => (
        <section className={styles.fallback} role="alert" aria-labelledby={`remote-fallback-${name}`}>
          <h2 id={`remote-fallback-${name}`}>This part of Time Wallet is not available right now</h2>
          <p>It could not be loaded. Your data is safe; the rest of the app keeps working.</p>
          <div className={styles.fallbackActions}>
            <Button onClick={retry}>Retry</Button>
            {wayOut && (
              <Link to={wayOut.to} className={styles.wayOut}>
                {wayOut.label}
              </Link>
            )}
          </div>
        </section>
      )}
    >
      <Suspense fallback={<PageSkeleton />}>
        <slot.Page />
      </Suspense>
    </RemoteErrorBoundary>
  );
}

/** Keyed by page, so moving between two pages of the same route position never reuses the other's slot. */
export function RemotePage({ name }: { name: RemotePageName }) {
  return <RemoteSlot key={name} name={name} />;
}
