import { renderStandalone } from '@time-wallet/api/standalone';
import TagsPage from '../app/pages/tags-page';

renderStandalone([{ path: '/app/edit-tags', title: 'Tags', Page: TagsPage }]);
