import type { ReactNode } from 'react';
import type { Category } from '@time-wallet/api';
import { IconButton, Skeleton } from '@time-wallet/shared-ui';
import { endsNextDay, formatMinutes, formatTime12 } from '@time-wallet/shared-ui/lib';
import { clockTimesOf, repeats, repeatWords, type Task } from '../lib/task';
import { CategoryName } from './category-name';
import styles from './task-row.module.css';

/** How a row writes its times: Today's 24-hour clock (SPEC) or Yesterday's 12-hour one. */
export type ClockFormat = '24h' | '12h';

export interface TaskRowProps {
  task: Task;
  categories: readonly Category[];
  clock: ClockFormat;
  /** The row's checkbox: done on Today, selected on Yesterday. */
  checked: boolean;
  onCheckedChange: () => void;
  checkboxLabel: string;
  /** A put-aside task's box cannot be ticked: it is neither done nor pending. */
  checkboxDisabled?: boolean;
  /** Strikes the title through (a done task). */
  struck?: boolean;
  showNotes?: boolean;
  /** Double-click and the ✎ button open the editor; without it the row has neither. */
  onEdit?: (task: Task) => void;
  /** Shown after the times (Today's timer). */
  controls?: ReactNode;
  /** A line under the title (what the timer did). */
  note?: ReactNode;
  /** Shown under the row, across it (Today's time entries); double-click there edits nothing. */
  details?: ReactNode;
}

/** An unscheduled task has no times yet: its estimate says how long it is planned to take. */
function Estimate({ task }: { task: Task }) {
  return (
    <span className={styles.times}>
      {task.estimateMinutes === null ? 'No estimate' : `Estimate ${formatMinutes(task.estimateMinutes)}`}
    </span>
  );
}

/** A repeating task's mark: two arrows in a loop, named by its rule in words (shown on hover, read by screen readers). */
function RepeatMark({ task }: { task: Task }) {
  const name = `Repeats: ${repeatWords(task)}`;
  return (
    <span className={styles.repeat} role="img" aria-label={name} title={name}>
      <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
        <path
          d="M3 7V6a2 2 0 0 1 2-2h7m-2-2 2 2-2 2M13 9v1a2 2 0 0 1-2 2H4m2 2-2-2 2-2"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.5"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
    </span>
  );
}

function Times({ task, clock }: { task: Task; clock: ClockFormat }) {
  const hhmm = clockTimesOf(task);
  const show = (instant: string, local: string) =>
    clock === '24h' ? local : formatTime12(new Date(instant));
  return (
    <span className={styles.times}>
      <time dateTime={task.start}>{show(task.start, hhmm.start)}</time>
      {' – '}
      <time dateTime={task.end}>{show(task.end, hhmm.end)}</time>
      {endsNextDay(hhmm.start, hhmm.end) && (
        <abbr className={styles.nextDay} title="ends the next day">
          {' +1'}
        </abbr>
      )}
    </span>
  );
}

/**
 * One task in a list (Today's and Yesterday's): checkbox, title, tag, notes, a repeating task's mark and times, and an
 * edit button.
 */
export function TaskRow(props: TaskRowProps) {
  const { task, categories, clock, checked, onCheckedChange, checkboxLabel, struck, showNotes, onEdit } =
    props;
  const { controls, note, checkboxDisabled, details } = props;
  return (
    <li
      className={onEdit ? `${styles.row} ${styles.editable}` : styles.row}
      onDoubleClick={
        onEdit
          ? (event) => {
              if (!(event.target instanceof Element && event.target.closest(`.${styles.details}`)))
                onEdit(task);
            }
          : undefined
      }
    >
      <input
        type="checkbox"
        className={styles.checkbox}
        checked={checked}
        onChange={onCheckedChange}
        aria-label={checkboxLabel}
        disabled={checkboxDisabled}
      />
      <span className={styles.main}>
        <span className={struck ? `${styles.title} ${styles.done}` : styles.title}>{task.title}</span>
        <CategoryName task={task} categories={categories} />
        {task.dismissed && <span className={styles.putAside}>Put aside</span>}
        {showNotes && task.notes && (
          <span className={styles.notes} title={task.notes}>
            {task.notes}
          </span>
        )}
        {note}
      </span>
      <span className={styles.meta}>
        {repeats(task) && <RepeatMark task={task} />}
        {task.scheduled ? <Times task={task} clock={clock} /> : <Estimate task={task} />}
        {controls}
      </span>
      {onEdit && (
        <IconButton label={`Edit ${task.title}`} className={styles.edit} onClick={() => onEdit(task)}>
          ✎
        </IconButton>
      )}
      {details && <div className={styles.details}>{details}</div>}
    </li>
  );
}

/** SPEC's two skeleton rows: shimmering while a list loads, still when they only hold the place of an empty one. */
export function SkeletonRows({ still = false }: { still?: boolean }) {
  return (
    <ul className={styles.list} aria-hidden="true">
      {[0, 1].map((row) => (
        <li key={row} className={styles.row}>
          <Skeleton width="1.125rem" height="1.125rem" still={still} />
          <span className={styles.main}>
            <Skeleton width="60%" height="1.25rem" still={still} />
            <Skeleton width="35%" height="0.875rem" still={still} />
          </span>
          <Skeleton width="6.5rem" height="1rem" still={still} />
        </li>
      ))}
    </ul>
  );
}

/** The list the rows stand in, named for assistive technology. */
export function TaskRows({ label, children }: { label: string; children: ReactNode }) {
  return (
    <ul className={styles.list} aria-label={label}>
      {children}
    </ul>
  );
}
