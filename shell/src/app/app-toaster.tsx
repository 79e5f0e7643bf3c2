import { useEffect, useState } from 'react';
import { Toaster, type ToastPosition } from 'react-hot-toast';

/** Off the screen's edges, and above a phone's home indicator or rounded corners where the browser reports them. */
const EDGE = '1rem';
const TOASTER_INSET = {
  top: `calc(${EDGE} + env(safe-area-inset-top, 0px))`,
  right: `calc(${EDGE} + env(safe-area-inset-right, 0px))`,
  // Above a phone's tab bar, where the page shows one (features/layout/tab-bar.module.css sets the variable).
  bottom: `calc(${EDGE} + env(safe-area-inset-bottom, 0px) + var(--tab-bar-clearance, 0px))`,
  left: `calc(${EDGE} + env(safe-area-inset-left, 0px))`,
};

/** Where the page is one narrow column: its actions sit in the flow, and toasts go where a phone's thumb is not. */
const NARROW = '(max-width: 640px)';

const narrowNow = () => typeof window.matchMedia === 'function' && window.matchMedia(NARROW).matches;

/**
 * The one toaster for the shell and every remote. On a wide screen toasts drop in at the top centre, between a page's
 * title and its action buttons (Add Event, Import and Export, Add Tag sit at the right): a corner covered those, and
 * the bottom covered the button just pressed at the end of a long form (Today's Add Task), pausing the toast under
 * the pointer. On a phone they rise from the bottom, as a snackbar does, clear of the header. Each toast is its own
 * polite live region (react-hot-toast's role="status"), so it is announced wherever it sits.
 */
export function AppToaster() {
  const [narrow, setNarrow] = useState(narrowNow);
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return undefined;
    const query = window.matchMedia(NARROW);
    const changed = () => setNarrow(query.matches);
    query.addEventListener('change', changed);
    return () => query.removeEventListener('change', changed);
  }, []);
  const position: ToastPosition = narrow ? 'bottom-center' : 'top-center';
  return <Toaster position={position} containerStyle={TOASTER_INSET} toastOptions={{ duration: 4000 }} />;
}
