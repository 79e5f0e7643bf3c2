import { renderStandalone } from '@time-wallet/api/standalone';
import AnalyticsPage from '../app/pages/analytics-page';

renderStandalone([{ path: '/app/analytics', title: 'Analytics', Page: AnalyticsPage }]);
