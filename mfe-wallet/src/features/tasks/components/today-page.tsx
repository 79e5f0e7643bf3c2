import { pageText } from '@time-wallet/api/page-text';
import { useState } from 'react';
import { useGetCategoriesQuery } from '@time-wallet/api';
import { Banner, Hint, Page } from '@time-wallet/shared-ui';
import { useGetTasksOfDayQuery } from '../api/tasks-api';
import { useSelectedDay } from '../hooks/use-selected-day';
import { useDayEntries } from '../hooks/use-day-entries';
import { useTimerLimit } from '../hooks/use-timer-limit';
import { useTimerTitle } from '../hooks/use-timer-title';
import { longDay, relativeDay } from '../lib/day';
import type { Task } from '../lib/task';
import { isTimerRunning } from '../lib/timer';
import { DayFigures } from './day-figures';
import { DaySwitcher } from './day-switcher';
import { EditTaskModal } from './edit-task-modal';
import { NewTaskForm } from './new-task-form';
import { TaskList } from './task-list';
import { UnscheduledList } from './unscheduled-list';
import styles from './today-page.module.css';

/** The page's heading and subtitle, one fact in the registry (the shell prerenders them too). */
const TEXT = pageText('today');

/** The task of the day shown whose timer runs (one at most: the server runs one per person). */
function useRunningTask(day: string): Task | undefined {
  const { data: scheduled = [] } = useGetTasksOfDayQuery({ date: day });
  const { data: unscheduled = [] } = useGetTasksOfDayQuery({ date: day, unscheduled: true });
  return [...scheduled, ...unscheduled].find(isTimerRunning);
}

/** Today Activities: plan and track the day shown, today unless the person picked another (?date=YYYY-MM-DD). */
export function TodayPage() {
  const selected = useSelectedDay();
  const { day, today, isToday, invalidDay } = selected;
  const dayName = isToday ? null : longDay(day);
  const { data: categories = [] } = useGetCategoriesQuery();
  const [editing, setEditing] = useState<Task | null>(null);
  const runningTask = useRunningTask(day);
  useTimerTitle(runningTask, useDayEntries(day));
  useTimerLimit(runningTask);

  return (
    <Page
      titleId="today-page-title"
      title={TEXT.heading}
      subtitle={TEXT.subtitle}
      hints={
        <Hint>
          <span className={styles.day}>{longDay(day)}</span> · {relativeDay(day, today)}
        </Hint>
      }
      actions={
        <DaySwitcher
          day={day}
          isToday={isToday}
          onShowDay={selected.showDay}
          onShowDayAfter={selected.showDayAfter}
          onShowToday={selected.showToday}
        />
      }
    >
      {invalidDay !== null && (
        <Banner tone="info" onDismiss={selected.forgetInvalidDay}>
          &ldquo;{invalidDay}&rdquo; is not a day (YYYY-MM-DD), so today is shown.
        </Banner>
      )}
      <DayFigures day={day} />
      <NewTaskForm day={day} dayName={dayName} categories={categories} />
      <TaskList day={day} dayName={dayName} categories={categories} onEdit={setEditing} />
      <UnscheduledList day={day} categories={categories} onEdit={setEditing} />
      {editing && (
        <EditTaskModal
          key={editing._id}
          task={editing}
          categories={categories}
          onClose={() => setEditing(null)}
        />
      )}
    </Page>
  );
}
