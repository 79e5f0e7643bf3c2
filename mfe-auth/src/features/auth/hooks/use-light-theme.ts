import { useEffect } from 'react';
import { forcedThemeReleased, lightThemeForced, useAppDispatch } from '@time-wallet/api';

/** Login and registration always look light; the person's own theme comes back when they leave. */
export function useLightTheme(): void {
  const dispatch = useAppDispatch();
  useEffect(() => {
    dispatch(lightThemeForced());
    return () => {
      dispatch(forcedThemeReleased());
    };
  }, [dispatch]);
}
