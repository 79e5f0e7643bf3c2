import { useEffect, useState } from 'react';
import { toLocalDateKey } from '@time-wallet/shared-ui/lib';

const AFTER_MIDNIGHT_MS = 1_000;

/**
 * Today's local date (YYYY-MM-DD), moving on at local midnight, so a page left open overnight shows the new day.
 * A tab woken from sleep re-reads the clock, since timers do not run while a machine sleeps.
 */
export function useLocalDate(): string {
  const [date, setDate] = useState(() => toLocalDateKey());

  useEffect(() => {
    let timer: number | undefined;
    const refresh = () => setDate(toLocalDateKey());
    const scheduleMidnight = () => {
      const now = new Date();
      const nextMidnight = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
      timer = window.setTimeout(
        () => {
          refresh();
          scheduleMidnight();
        },
        nextMidnight.getTime() - now.getTime() + AFTER_MIDNIGHT_MS,
      );
    };
    scheduleMidnight();
    document.addEventListener('visibilitychange', refresh);
    return () => {
      window.clearTimeout(timer);
      document.removeEventListener('visibilitychange', refresh);
    };
  }, []);

  return date;
}
