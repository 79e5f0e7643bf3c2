import { formatDate, formatMinutes } from '@time-wallet/shared-ui/lib';
import { useEffect, useId, useMemo, useRef, type CSSProperties, type RefObject } from 'react';
import type { Draggable } from '@fullcalendar/interaction';
import { DEFAULT_CATEGORY_COLOR, type Task } from '@time-wallet/api';
import { Button, EmptyState, Hint, Skeleton, VisuallyHidden } from '@time-wallet/shared-ui';
import { unscheduledByDay } from '../lib/task-blocks';
import { taskEventInput } from './task-event';
import styles from './unscheduled-panel.module.css';

export interface UnscheduledPanelProps {
  /** The visible range's tasks; the panel keeps the unscheduled ones still to plan. */
  tasks: readonly Task[];
  visibleDays: readonly string[];
  categoryColors: ReadonlyMap<string, string>;
  loading: boolean;
  failed: boolean;
  onSchedule: (taskId: string) => void;
  /** The panel's element: a task dragged from the grid and dropped on it goes back to this list. */
  panelRef: RefObject<HTMLElement | null>;
  /**
   * FullCalendar's Draggable, from the chunk loaded after the page's first paint: until it is there (null) the tasks
   * cannot be dragged, as there is no grid to drop them on yet.
   */
  draggableClass: typeof Draggable | null;
}

function dayHeading(dateKey: string): string {
  const [year, month, day] = dateKey.split('-').map(Number);
  return formatDate(new Date(year, month - 1, day), 'en-US', {
    weekday: 'long',
    month: 'short',
    day: 'numeric',
  });
}

/**
 * The visible days' unscheduled tasks, per day with their estimates. Each can be dragged onto the grid (its estimate
 * is the block's length) or scheduled with "Schedule…" (the same without dragging); a task dragged back here from the
 * grid is unscheduled.
 */
export function UnscheduledPanel({
  tasks,
  visibleDays,
  categoryColors,
  loading,
  failed,
  onSchedule,
  panelRef,
  draggableClass,
}: UnscheduledPanelProps) {
  const titleId = useId();
  const groups = useMemo(() => unscheduledByDay(tasks, visibleDays), [tasks, visibleDays]);
  const colorOf = (task: Task) => categoryColors.get(task.categoryId) ?? DEFAULT_CATEGORY_COLOR;

  // FullCalendar reads what a dragged item becomes when the drag starts; the latest tasks, without a new Draggable.
  const latest = useRef({ tasks, colorOf });
  useEffect(() => {
    latest.current = { tasks, colorOf };
  });
  useEffect(() => {
    const panel = panelRef.current;
    if (!panel || !draggableClass) return;
    const draggable = new draggableClass(panel, {
      itemSelector: '[data-task-id]',
      eventData: (item) => {
        const task = latest.current.tasks.find((candidate) => candidate._id === item.dataset.taskId);
        return task ? taskEventInput(task, latest.current.colorOf(task)) : { create: false };
      },
    });
    return () => draggable.destroy();
  }, [panelRef, draggableClass]);

  let content;
  if (loading) {
    content = <Skeleton count={3} height="3rem" radius="var(--radius-md)" />;
  } else if (failed) {
    content = (
      <p role="alert" className={styles.error}>
        Failed to load tasks
      </p>
    );
  } else if (groups.length === 0) {
    content = <EmptyState>Nothing left to plan on these days.</EmptyState>;
  } else {
    content = groups.map((group) => (
      <div key={group.date} className={styles.day}>
        <h3 className={styles.dayTitle}>
          {dayHeading(group.date)}
          <span className={styles.dayTotal}>
            {formatMinutes(group.tasks.reduce((total, task) => total + (task.estimateMinutes ?? 0), 0))}
          </span>
        </h3>
        <ul className={styles.list}>
          {group.tasks.map((task) => (
            <li
              key={task._id}
              className={styles.item}
              style={{ '--task-color': colorOf(task) } as CSSProperties}
            >
              <div className={styles.handle} data-task-id={task._id}>
                <span className={styles.glyph} aria-hidden="true">
                  ☐
                </span>
                <span className={styles.title} id={`${titleId}-${task._id}`}>
                  {task.title}
                </span>
                {task.estimateMinutes !== null && (
                  <span className={styles.estimate}>
                    <VisuallyHidden>Estimate: </VisuallyHidden>
                    {formatMinutes(task.estimateMinutes)}
                  </span>
                )}
              </div>
              <Button
                variant="secondary"
                className={styles.schedule}
                aria-describedby={`${titleId}-${task._id}`}
                onClick={() => onSchedule(task._id)}
              >
                Schedule…
              </Button>
            </li>
          ))}
        </ul>
      </div>
    ));
  }

  return (
    <section
      ref={panelRef}
      className={styles.panel}
      aria-labelledby={titleId}
      aria-busy={loading || undefined}
      tabIndex={-1}
    >
      <h2 id={titleId} className={styles.heading}>
        Unscheduled
      </h2>
      <Hint>
        Drag a task onto the grid to plan it, or use Schedule…; drag one back here to unschedule it.
      </Hint>
      <p className={styles.dropHint} aria-hidden="true">
        Drop here to unschedule
      </p>
      {content}
    </section>
  );
}
