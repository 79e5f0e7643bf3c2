import { useEffect, useState } from 'react';
import { useGetWalletQuery } from '../api/wallet-api';
import { readWalletSnapshot, writeWalletSnapshot } from '../lib/wallet-snapshot';
import { useLocalDate } from '../../../lib/use-local-date';

export const WALLET_FETCH_ERROR = 'Failed to fetch wallet data';

/**
 * The wallet fetch of SPEC section 4 on top of RTK Query: the last known snapshot paints first, a successful fetch
 * replaces and persists it, a failure raises an error the person can dismiss, and RTK Query refuses to start a fetch
 * while the same one is in flight.
 */
export function useWallet() {
  const [storedSnapshot] = useState(readWalletSnapshot);
  const query = useGetWalletQuery(useLocalDate());
  const [dismissedFailure, setDismissedFailure] = useState<number | undefined>();

  useEffect(() => {
    if (query.data) writeWalletSnapshot(query.data);
  }, [query.data]);

  const failure = query.isError ? query.startedTimeStamp : undefined;
  return {
    wallet: query.data ?? storedSnapshot,
    isLoading: query.isFetching,
    error: failure !== undefined && failure !== dismissedFailure ? WALLET_FETCH_ERROR : null,
    dismissError: () => setDismissedFailure(failure),
    refresh: () => void query.refetch(),
  };
}
