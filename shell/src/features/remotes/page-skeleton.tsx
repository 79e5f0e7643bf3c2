import { PageHeader, Skeleton } from '@time-wallet/shared-ui';
import type { RegisteredPage } from '../../lib/pages';
import styles from './page-skeleton.module.css';

/**
 * What a page's slot shows while its remote loads: the page's registry heading, and its subtitle where it has one,
 * above placeholders for its content.
 *
 * The build prerenders this same frame into the first HTML (src/app/prerender.tsx), so the words paint before any
 * script has run; React's first render draws the same frame again, and the remote's page draws the same words (read
 * from the same registry entry) in the same shared-ui header, so the largest paint stays the prerendered one.
 * - A page with a subtitle (the signed-in pages) gets shared-ui's PageHeader, the header the remote's page draws, so
 *   the text is laid out at the same size and place and nothing moves when the page takes over.
 * - A full-screen sign-in page's card heading belongs to mfe-auth; the frame draws it 2% larger (see the CSS).
 */
export function PageSkeleton({ page }: { page: RegisteredPage }) {
  return (
    <div
      className={[
        styles.skeleton,
        !page.layout && (page.subtitle ? styles.fullScreenPage : styles.fullScreen),
      ]
        .filter(Boolean)
        .join(' ')}
      aria-busy="true"
      aria-label="Loading page"
    >
      {page.subtitle ? (
        <PageHeader titleId={`${page.name}-loading-title`} title={page.heading} subtitle={page.subtitle} />
      ) : (
        <h1 className={styles.title}>{page.heading}</h1>
      )}
      <Skeleton width="60%" height="1rem" />
      <Skeleton height="8rem" />
    </div>
  );
}
