import { api, type TimeEntry, useAppDispatch } from '@time-wallet/api';
import { useGetTimeEntriesQuery } from '@time-wallet/api/time-entries';
import { addDays } from '@time-wallet/shared-ui/lib';

/** The time entries overlapping the day shown (GET /time-entries), undefined until they are known. */
export function useDayEntries(day: string): readonly TimeEntry[] | undefined {
  return useGetTimeEntriesQuery({ from: day, to: addDays(day, 1) }).data;
}

/**
 * Asks again for the entries after a change made elsewhere that moves them (a timer's start or stop): those calls
 * refetch the tasks and the ledger, not the entries.
 */
export function useRefreshEntries(): () => void {
  const dispatch = useAppDispatch();
  return () => {
    dispatch(api.util.invalidateTags(['TimeEntry']));
  };
}
