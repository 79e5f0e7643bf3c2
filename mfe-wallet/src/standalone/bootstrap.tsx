import { renderStandalone } from '@time-wallet/api/standalone';
import WalletPage from '../app/pages/wallet-page';
import TodayPage from '../app/pages/today-page';
import YesterdayPage from '../app/pages/yesterday-page';

renderStandalone([
  { path: '/app/wallet', title: 'Wallet', Page: WalletPage },
  { path: '/app/today', title: 'Today', Page: TodayPage },
  { path: '/app/yesterday', title: 'Yesterday', Page: YesterdayPage },
]);
