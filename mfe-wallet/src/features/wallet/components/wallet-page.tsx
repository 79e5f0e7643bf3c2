import { pageText } from '@time-wallet/api/page-text';
import { Banner, Page } from '@time-wallet/shared-ui';
import { useWallet } from '../hooks/use-wallet';
import { Reminders } from './reminders';
import { WalletSummary } from './wallet-summary';

/** The page's heading and subtitle, one fact in the registry (the shell prerenders them too). */
const TEXT = pageText('wallet');

export function WalletPage() {
  const { wallet, overMinutes, isLoading, error, dismissError, refresh } = useWallet();
  return (
    <Page titleId="wallet-page-title" title={TEXT.heading} subtitle={TEXT.subtitle}>
      {error && (
        <Banner tone="error" onDismiss={dismissError}>
          {error}
        </Banner>
      )}
      <WalletSummary wallet={wallet} overMinutes={overMinutes} isLoading={isLoading} onRefresh={refresh} />
      <Reminders spentHours={wallet?.spentHours ?? 0} />
    </Page>
  );
}
