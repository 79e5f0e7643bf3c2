import { Component, lazy, Suspense, useState, type ErrorInfo, type ReactNode } from 'react';
import { Link } from '@time-wallet/api/router';
import { Button } from '@time-wallet/shared-ui';
import { loadRemotePage } from './federation';
import { PageSkeleton } from './page-skeleton';
import { pageNamed, wayOutOf } from '../../lib/pages';
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

/**
 * One remote's page in its slot: a skeleton while it loads, and if its remote is down or throws, a fallback whose
 * Retry loads the remote again without reloading the page. The rest of the shell keeps working either way.
 */
function RemoteSlot({ name }: { name: string }) {
  const page = pageNamed(name);
  // Held above the Suspense boundary: a component that suspends before its first commit keeps no state.
  const [slot, setSlot] = useState(() => ({
    attempt: 0,
    Page: lazy(() => loadRemotePage(page)),
  }));
  const retry = () =>
    setSlot(({ attempt }) => ({
      attempt: attempt + 1,
      Page: lazy(() => loadRemotePage(page, { fresh: true })),
    }));

  const wayOut = wayOutOf(page);

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
      <Suspense fallback={<PageSkeleton page={page} />}>
        <slot.Page />
      </Suspense>
    </RemoteErrorBoundary>
  );
}

/** Keyed by page, so moving between two pages of the same route position never reuses the other's slot. */
export function RemotePage({ name }: { name: string }) {
  return <RemoteSlot key={name} name={name} />;
}
