import { useEffect, useState } from 'react';
import { useGetLedgerQuery } from '@time-wallet/api';
import { addDays } from '@time-wallet/shared-ui/lib';
import { useGetWalletQuery } from '../api/wallet-api';
import { readWalletSnapshot, writeWalletSnapshot } from '../lib/wallet-snapshot';
import { useLocalDate } from '../../../lib/use-local-date';

export const WALLET_FETCH_ERROR = 'Failed to fetch wallet data';

const MINUTES_PER_HOUR = 60;

/**
 * The wallet fetch of SPEC section 4 on top of RTK Query: the last known snapshot paints first, a successful fetch
 * replaces and persists it, a failure raises an error the person can dismiss, and RTK Query refuses to start a fetch
 * while the same one is in flight.
 *
 * How far today runs over comes from today's ledger in minutes (the calendar and Today read the same day): the
 * wallet's overHours, at one decimal, reads 0 for a plan a minute over. Until the ledger answers, overHours stands in.
 */
export function useWallet() {
  const [storedSnapshot] = useState(readWalletSnapshot);
  const today = useLocalDate();
  const query = useGetWalletQuery(today);
  const ledger = useGetLedgerQuery({ from: today, to: addDays(today, 1) });
  const [dismissedFailure, setDismissedFailure] = useState<number | undefined>();

  useEffect(() => {
    if (query.data) writeWalletSnapshot(query.data);
  }, [query.data]);

  const wallet = query.data ?? storedSnapshot;
  const ledgerDay = ledger.data?.find((day) => day.date === today);
  const failure = query.isError ? query.startedTimeStamp : undefined;
  return {
    wallet,
    overMinutes: ledgerDay?.overMinutes ?? (wallet ? wallet.overHours * MINUTES_PER_HOUR : 0),
    isLoading: query.isFetching,
    error: failure !== undefined && failure !== dismissedFailure ? WALLET_FETCH_ERROR : null,
    dismissError: () => setDismissedFailure(failure),
    refresh: () => {
      void query.refetch();
      void ledger.refetch();
    },
  };
}
