import { TodayPage } from '../../features/tasks/components/today-page';

export default TodayPage;
