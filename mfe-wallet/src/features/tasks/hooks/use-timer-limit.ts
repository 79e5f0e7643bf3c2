import { useEffect } from 'react';
import { api, useAppDispatch } from '@time-wallet/api';
import { TIMER_LIMIT_MS } from '../lib/timer';
import type { Task } from '../lib/task';

/** How long after asking the server again a timer that still runs past its limit is asked about once more. */
const ASK_AGAIN_MS = 30_000;

/**
 * When the running timer reaches the server's limit, asks the server again: every request settles a timer past it
 * (stopped at 12 hours, its task marked), so the lists, the entries and the figures then show what it recorded,
 * instead of the client cutting the counter itself. A device clock ahead of the server's only means asking again.
 */
export function useTimerLimit(runningTask: Task | undefined) {
  const dispatch = useAppDispatch();
  const startedAt = runningTask?.timerStartedAt ?? null;
  useEffect(() => {
    if (startedAt === null) return;
    let timer: number | undefined;
    const askAgain = () => {
      dispatch(api.util.invalidateTags(['Task', 'TimeEntry', 'Wallet']));
      timer = window.setTimeout(askAgain, ASK_AGAIN_MS);
    };
    const untilLimit = Date.parse(startedAt) + TIMER_LIMIT_MS - Date.now();
    timer = window.setTimeout(askAgain, Math.max(0, untilLimit) + 1_000);
    return () => window.clearTimeout(timer);
  }, [startedAt, dispatch]);
}
