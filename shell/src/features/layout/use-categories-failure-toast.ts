import { useEffect } from 'react';
import { useLocation } from '@time-wallet/api/router';
import toast from 'react-hot-toast';

/** 'Failed to fetch categories.' is shown only inside the signed-in area, once per failure. */
export function useCategoriesFailureToast(failed: boolean): void {
  const { pathname } = useLocation();
  const insideApp = pathname.startsWith('/app/');
  useEffect(() => {
    if (failed && insideApp) toast.error('Failed to fetch categories.', { id: 'categories-failed' });
  }, [failed, insideApp]);
}
