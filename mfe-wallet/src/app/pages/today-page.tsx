import { TodayPage } from '../../features/today/components/today-page';

export default TodayPage;
