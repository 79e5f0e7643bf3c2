import { TagsPage } from '../../features/tags/components/tags-page';

export default TagsPage;
