import { useEffect } from 'react';
import { selectAppliedTheme, useAppSelector } from '@time-wallet/api';

/** Keeps <html data-theme> in step with the preference (or a screen's forced theme); tokens do the rest. */
export function useAppliedTheme(): void {
  const theme = useAppSelector(selectAppliedTheme);
  useEffect(() => {
    document.documentElement.setAttribute('data-theme', theme);
  }, [theme]);
}
