import { AppLayoutFrame } from '../features/layout/app-layout';
import { PageSkeleton } from '../features/remotes/page-skeleton';
import { isSignedInPage, remotePageForPath, type RegisteredPage } from '../lib/pages';

/**
 * A signed-in page before its remote is drawn: the layout around it (for a page inside it) and its loading frame,
 * with the session check's spinner. The build prerenders it into the page's first HTML, and RequireAuth draws it while
 * the check runs, so the page's heading stays on screen from the first paint to the page itself.
 */
export function SignedInPageFrame({
  page,
  firstFrameSlot = false,
}: {
  page: RegisteredPage;
  /** The prerendered page's: see PageSkeleton. */
  firstFrameSlot?: boolean;
}) {
  const frame = <PageSkeleton page={page} checkingSession firstFrameSlot={firstFrameSlot} />;
  return page.layout ? <AppLayoutFrame>{frame}</AppLayoutFrame> : frame;
}

/** The pages that have that frame: signed-in ones with a header (registry subtitle). */
export const hasSignedInFrame = (page: RegisteredPage) => isSignedInPage(page) && Boolean(page.subtitle);

/** The frame for a URL path, or null where the page has none (RequireAuth then shows its spinner alone). */
export function signedInFrameAt(pathname: string) {
  const page = remotePageForPath(pathname);
  return page && hasSignedInFrame(page) ? <SignedInPageFrame page={page} /> : null;
}
