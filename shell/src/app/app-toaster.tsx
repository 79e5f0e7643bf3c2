import { Toaster } from 'react-hot-toast';

/** Off the screen's edges, and above a phone's home indicator or rounded corners where the browser reports them. */
const EDGE = '1rem';
const TOASTER_INSET = {
  top: EDGE,
  right: `calc(${EDGE} + env(safe-area-inset-right, 0px))`,
  bottom: `calc(${EDGE} + env(safe-area-inset-bottom, 0px))`,
  left: `calc(${EDGE} + env(safe-area-inset-left, 0px))`,
};

/**
 * The one toaster for the shell and every remote. Toasts rise from the bottom centre: every page keeps its main
 * actions (Add Event, Import and Export, Add Tag) in the bar at its top, which toasts in a top corner covered.
 * Each toast is its own polite live region (react-hot-toast's role="status"), so it is announced wherever it sits.
 */
export function AppToaster() {
  return (
    <Toaster position="bottom-center" containerStyle={TOASTER_INSET} toastOptions={{ duration: 4000 }} />
  );
}
