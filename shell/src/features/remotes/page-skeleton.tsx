import { ThemeToggle } from '@time-wallet/api';
import { Link } from '@time-wallet/api/router';
import { PageHeader, Skeleton, Spinner } from '@time-wallet/shared-ui';
import { FIRST_FRAME_SLOT, isSignedInPage, wayOutOf, type RegisteredPage } from '../../lib/pages';
import styles from './page-skeleton.module.css';

/** Where the frame sits: inside the layout, or the whole screen with or without a page header. */
function frameClass(page: RegisteredPage): string | undefined {
  if (page.layout) return page.subtitle ? styles.withHeader : undefined;
  return page.subtitle ? styles.fullScreenPage : styles.fullScreen;
}

/**
 * What a page's slot shows while its remote loads: the page's registry heading, and its subtitle where it has one,
 * above placeholders for its content.
 *
 * The build prerenders this same frame into the first HTML (src/app/prerender.tsx), so the words paint before any
 * script has run; React's first render draws the same frame again, and the remote's page draws the same words (read
 * from the same registry entry) in the same shared-ui header, so the largest paint stays the prerendered one.
 * - A page with a subtitle (the signed-in pages) gets shared-ui's PageHeader, the header the remote's page draws, so
 *   the text is laid out at the same size and place and nothing moves when the page takes over.
 * - A full-screen signed-in page (the calendar) has no side navigation, so it opens with its own bar, the way back
 *   and the theme switch (SPEC); the frame draws the same bar above the header, so the header does not move down.
 * - A full-screen sign-in page's card heading belongs to mfe-auth; the frame draws it 2% larger (see the CSS).
 */
export function PageSkeleton({
  page,
  checkingSession = false,
  firstFrameSlot = false,
}: {
  page: RegisteredPage;
  checkingSession?: boolean;
  /**
   * Prerender only: the placeholders are marked as the slot where the static server may put the remote's own first
   * frame (devkit serve/first-frames.mjs); without one they stay.
   */
  firstFrameSlot?: boolean;
}) {
  const wayOut = isSignedInPage(page) ? wayOutOf(page) : null;
  const placeholders = (
    <>
      <Skeleton width="60%" height="1rem" />
      <Skeleton height="8rem" />
    </>
  );
  return (
    <div
      className={[styles.skeleton, frameClass(page)].filter(Boolean).join(' ')}
      // Busy, which holds back what is inside from screen readers, except while the session spinner is there to say
      // what is going on.
      aria-busy={checkingSession ? undefined : true}
      aria-label="Loading page"
    >
      {wayOut && (
        <div className={styles.pageBar}>
          <Link to={wayOut.to} className={styles.wayOut}>
            <span aria-hidden="true">←</span> {wayOut.label}
          </Link>
          <ThemeToggle />
        </div>
      )}
      {page.subtitle ? (
        // Shown, not announced: the frame stands in for the page, whose own heading comes with it.
        <div aria-hidden="true">
          <PageHeader titleId={`${page.name}-loading-title`} title={page.heading} subtitle={page.subtitle} />
        </div>
      ) : (
        <h1 className={styles.title}>{page.heading}</h1>
      )}
      {/* SPEC: the protected area shows a spinner while the session is loading; under the page's header, which stays. */}
      {checkingSession && <Spinner label="Checking your session" />}
      {firstFrameSlot ? (
        <div
          className={styles.firstFrameSlot}
          {...{ [FIRST_FRAME_SLOT]: `${page.remote}/${page.name}` }}
          aria-hidden="true"
        >
          {placeholders}
        </div>
      ) : (
        placeholders
      )}
    </div>
  );
}
