import { useMemo } from 'react';
import { addDays } from '@time-wallet/shared-ui/lib';
import { useSearchParams } from '@time-wallet/api/router';
import { useLocalDate } from '../../../lib/use-local-date';
import { isDayKey } from '../lib/day';

const DAY_PARAM = 'date';

/**
 * The day Today shows, kept in the URL (?date=YYYY-MM-DD) so a reload or Back shows it again. No parameter means the
 * person's local today, which moves on at midnight; a parameter that is not a day shows today and is reported.
 */
export function useSelectedDay() {
  const today = useLocalDate();
  const [searchParams, setSearchParams] = useSearchParams();
  const asked = searchParams.get(DAY_PARAM);
  const valid = asked !== null && isDayKey(asked);
  const day = valid ? asked : today;

  // The same functions until the day, today or the router's setter change: the switcher given them need not redraw.
  const actions = useMemo(() => {
    const navigate = (next: string | null, replace = false) =>
      setSearchParams(
        (current) => {
          const params = new URLSearchParams(current);
          if (next === null || next === today) params.delete(DAY_PARAM);
          else params.set(DAY_PARAM, next);
          return params;
        },
        { replace },
      );
    return {
      showDay: (next: string) => navigate(next),
      showDayAfter: (days: number) => navigate(addDays(day, days)),
      showToday: () => navigate(null),
      forgetInvalidDay: () => navigate(null, true),
    };
  }, [day, today, setSearchParams]);

  return {
    day,
    today,
    isToday: day === today,
    /** The text of a ?date= that is not a day, else null. */
    invalidDay: asked !== null && !valid ? asked : null,
    ...actions,
  };
}
