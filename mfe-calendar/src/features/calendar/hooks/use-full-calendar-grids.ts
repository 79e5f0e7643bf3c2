import { useEffect, useState } from 'react';
import type * as GridsModule from '../components/full-calendar-grids';

type Grids = typeof GridsModule;

// Loaded once per page load: a later visit to the calendar, or a switch of view, draws the grid at once.
let loadedGrids: Grids | null = null;
let loadingGrids: Promise<Grids> | null = null;

/** Resolves after the browser has painted: a frame's animation callbacks run before its paint, a task queued there after. */
function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

function loadGrids(): Promise<Grids> {
  loadingGrids ??= import('../components/full-calendar-grids').then(
    (grids) => (loadedGrids = grids),
    (error: unknown) => {
      // A failed download is tried again by the next page that needs it.
      loadingGrids = null;
      throw error;
    },
  );
  return loadingGrids;
}

/**
 * FullCalendar's grids (about 75 KB of JavaScript as sent, and its longest tasks), asked for only once the page's
 * first frame is painted, and only while `wanted` (a phone's day is drawn without them until it is used): until then
 * (null) the page draws the grid's frame without them. Once loaded they stay, for every later page. A failed download
 * is thrown to the route's error boundary.
 */
export function useFullCalendarGrids(wanted = true): Grids | null {
  const [grids, setGrids] = useState(loadedGrids);
  const [, setFailure] = useState<never>();
  useEffect(() => {
    if (grids || !wanted) return;
    let mounted = true;
    afterNextPaint()
      .then(loadGrids)
      .then(
        (loaded) => {
          if (mounted) setGrids(loaded);
        },
        (error: unknown) => {
          if (mounted)
            setFailure(() => {
              throw error;
            });
        },
      );
    return () => {
      mounted = false;
    };
  }, [grids, wanted]);
  return grids;
}
