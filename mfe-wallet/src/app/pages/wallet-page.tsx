import { WalletPage } from '../../features/wallet/components/wallet-page';

export default WalletPage;
