import type { EventContentArg, EventInput } from '@fullcalendar/core';
import type { Task } from '@time-wallet/api';
import { taskBlockId } from '../lib/task-blocks';
import styles from './week-grid.module.css';

/** What FullCalendar keeps on a task's block, to tell it from an event's. */
export interface TaskBlockProps {
  kind: 'task';
  taskId: string;
  done: boolean;
}

export function isTaskBlock(
  props: Record<string, unknown>,
): props is Record<string, unknown> & TaskBlockProps {
  return props.kind === 'task';
}

/**
 * A task as a grid block: its category colour as a left stripe over a tint of it, with the text colour of the page
 * (a category colour is anybody's pick, so never the text's background, see week-grid.module.css); done ones muted. Scheduled tasks carry their
 * instants; an unscheduled one dragged from the list carries its estimate as the block's length.
 */
export function taskEventInput(task: Task, color: string): EventInput {
  const extendedProps: TaskBlockProps = { kind: 'task', taskId: task._id, done: task.done };
  return {
    id: taskBlockId(task._id),
    title: task.title,
    ...(task.scheduled
      ? { start: task.start, end: task.end }
      : { duration: { minutes: task.estimateMinutes ?? 60 }, create: true }),
    classNames: task.done ? [styles.taskBlock, styles.taskDone] : [styles.taskBlock],
    borderColor: color,
    backgroundColor: task.done
      ? `color-mix(in srgb, ${color} 6%, var(--color-surface-2))`
      : `color-mix(in srgb, ${color} 16%, var(--color-surface))`,
    extendedProps,
  };
}

function element(tag: string, className: string | undefined, text: string): HTMLElement {
  const node = document.createElement(tag);
  if (className) node.className = className;
  node.textContent = text;
  return node;
}

/**
 * A task block's content: a checkbox glyph and the word "Task" for screen readers, so a task never differs from an
 * event by colour alone; the title first, as a short block shows one line. Plain DOM, not React: 100 blocks stay
 * cheap to draw and to drag. Events keep the default.
 */
export function renderBlockContent({ event, timeText }: EventContentArg): true | { domNodes: Node[] } {
  if (!isTaskBlock(event.extendedProps)) return true;
  const { done } = event.extendedProps;
  const content = document.createElement('div');
  content.className = styles.taskContent ?? '';
  content.append(
    element('span', styles.taskGlyph, done ? '☑' : '☐'),
    element('span', styles.srOnly, done ? 'Done task: ' : 'Task: '),
    element('span', styles.taskTitle, event.title),
    element('span', styles.taskTime, timeText),
  );
  content.firstElementChild?.setAttribute('aria-hidden', 'true');
  return { domNodes: [content] };
}
