import { pageText } from '@time-wallet/api/page-text';
import { useState } from 'react';
import { useGetCategoriesQuery, type Category } from '@time-wallet/api';
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

// One empty list for every render before the categories answer, so the sections given it need not draw again.
const NO_CATEGORIES: readonly Category[] = [];
// The page reads only the categories of the query's state: their read starting or ending alone draws nothing.
const categoriesOnly = ({ data }: { data?: Category[] }) => ({ categories: data ?? NO_CATEGORIES });

/** The task of the day shown whose timer runs (one at most: the server runs one per person). */
function useRunningTask(day: string): Task | undefined {
  const { data: scheduled = [] } = useGetTasksOfDayQuery({ date: day });
  const { data: unscheduled = [] } = useGetTasksOfDayQuery({ date: day, unscheduled: true });
  return [...scheduled, ...unscheduled].find(isTimerRunning);
}

/**
 * The running timer's effects on the tab's title and its 12-hour limit. Its own component, drawing nothing: the lists
 * and entries it reads answer often, and each answer redraws only this, not the page and every section in it.
 */
function RunningTimer({ day }: { day: string }) {
  const runningTask = useRunningTask(day);
  useTimerTitle(runningTask, useDayEntries(day));
  useTimerLimit(runningTask);
  return null;
}

/** Today Activities: plan and track the day shown, today unless the person picked another (?date=YYYY-MM-DD). */
export function TodayPage() {
  const selected = useSelectedDay();
  const { day, today, isToday, invalidDay } = selected;
  const dayName = isToday ? null : longDay(day);
  // Each section reads its own data and is memoised: an answer for one redraws that one alone.
  const { categories } = useGetCategoriesQuery(undefined, { selectFromResult: categoriesOnly });
  const [editing, setEditing] = useState<Task | null>(null);

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
      <RunningTimer day={day} />
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
