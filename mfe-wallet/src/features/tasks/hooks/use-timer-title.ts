import { useEffect, useRef } from 'react';
import type { TimeEntry } from '@time-wallet/api';
import { runningTimerTitle } from '../lib/timer';
import type { Task } from '../lib/task';
import { useNow } from './use-now';

/**
 * Shows the running timer in the page title ('▶ 0:12:05 Write report – <title>'), every second, and puts the title back
 * when it stops or the page goes. Whatever title the shell set is kept after the clock; if the shell changes the title
 * meanwhile, its new title is taken instead of being overwritten.
 */
export function useTimerTitle(runningTask: Task | undefined, entries: readonly TimeEntry[] | undefined) {
  const runningId = runningTask?._id;
  const now = useNow(runningId !== undefined);
  const pageTitle = useRef<string | null>(null);
  const shownTitle = useRef<string | null>(null);

  useEffect(() => {
    if (runningId === undefined) return;
    pageTitle.current = document.title;
    return () => {
      if (document.title === shownTitle.current && pageTitle.current !== null)
        document.title = pageTitle.current;
      pageTitle.current = null;
      shownTitle.current = null;
    };
  }, [runningId]);

  useEffect(() => {
    if (!runningTask || pageTitle.current === null) return;
    if (shownTitle.current !== null && document.title !== shownTitle.current)
      pageTitle.current = document.title;
    shownTitle.current = runningTimerTitle(runningTask, entries, now, pageTitle.current);
    document.title = shownTitle.current;
  }, [runningTask, entries, now]);
}
