import { renderStandalone } from '@time-wallet/api/standalone';
import CalendarPage from '../app/pages/calendar-page';

renderStandalone([{ path: '/app/calendar', title: 'Calendar', Page: CalendarPage }]);
