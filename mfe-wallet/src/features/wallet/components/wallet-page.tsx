import { Banner, Page } from '@time-wallet/shared-ui';
import { useWallet } from '../hooks/use-wallet';
import { Reminders } from './reminders';
import { WalletSummary } from './wallet-summary';

export function WalletPage() {
  const { wallet, isLoading, error, dismissError, refresh } = useWallet();
  return (
    <Page
      titleId="wallet-page-title"
      title="Manage Time Wallet"
      subtitle="Balance habits, reminders, events, activites"
    >
      {error && (
        <Banner tone="error" onDismiss={dismissError}>
          {error}
        </Banner>
      )}
      <WalletSummary wallet={wallet} isLoading={isLoading} onRefresh={refresh} />
      <Reminders spentHours={wallet?.spentHours ?? 0} />
    </Page>
  );
}
