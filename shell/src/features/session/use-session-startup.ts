import { useEffect } from 'react';
import { useAppDispatch } from '@time-wallet/api';
import { restoreSession } from './restore-session';

export function useSessionStartup(): void {
  const dispatch = useAppDispatch();
  useEffect(() => {
    void restoreSession(dispatch);
  }, [dispatch]);
}
