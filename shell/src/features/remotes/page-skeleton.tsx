import { Skeleton } from '@time-wallet/shared-ui';
import type { RegisteredPage } from '../../lib/pages';
import styles from './page-skeleton.module.css';

/**
 * What a page's slot shows while its remote loads. A full-screen page (no side navigation around it) shows its
 * registry heading (else its title) where the heading's bar would be: the build prerenders this same frame into the
 * first HTML of the guest pages (src/app/prerender.tsx), so the heading paints before any script has run, React's
 * first render draws the same frame again, and the remote's page draws the same words at the same size (its heading
 * reads the same registry field), so the largest paint stays the prerendered one.
 */
export function PageSkeleton({ page }: { page: RegisteredPage }) {
  return (
    <div
      className={[styles.skeleton, !page.layout && styles.fullScreen].filter(Boolean).join(' ')}
      aria-busy="true"
      aria-label="Loading page"
    >
      {page.layout ? (
        <Skeleton width="40%" height="2rem" />
      ) : (
        <h1 className={styles.title}>{page.heading ?? page.title}</h1>
      )}
      <Skeleton width="60%" height="1rem" />
      <Skeleton height="8rem" />
    </div>
  );
}
