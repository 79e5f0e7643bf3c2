import { useGetCategoriesQuery } from '@time-wallet/api';
import { Page } from '@time-wallet/shared-ui';
import { useLocalDate } from '../../../lib/use-local-date';
import { NewTaskForm } from './new-task-form';
import { TaskList } from './task-list';

export function TodayPage() {
  const today = useLocalDate();
  const { data: categories = [] } = useGetCategoriesQuery();
  return (
    <Page
      titleId="today-page-title"
      title="Today Activities"
      subtitle="Manage your habits, reminders, events, activites"
    >
      <NewTaskForm today={today} categories={categories} />
      <TaskList today={today} categories={categories} />
    </Page>
  );
}
