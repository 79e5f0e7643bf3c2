import { YesterdayPage } from '../../features/tasks/components/yesterday-page';

export default YesterdayPage;
