import type { TimeEntry } from '@time-wallet/api';
import { useGetTimeEntriesQuery } from '@time-wallet/api/time-entries';
import { addDays } from '@time-wallet/shared-ui/lib';

/** The time entries overlapping the day shown (GET /time-entries), undefined until they are known. */
export function useDayEntries(day: string): readonly TimeEntry[] | undefined {
  return useGetTimeEntriesQuery({ from: day, to: addDays(day, 1) }).data;
}
