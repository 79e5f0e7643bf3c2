import { YesterdayPage } from '../../features/yesterday/components/yesterday-page';

export default YesterdayPage;
