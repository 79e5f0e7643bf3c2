import type { EventContentArg, EventInput } from '@fullcalendar/core';
import type { Task } from '@time-wallet/api';
import { describeRule } from '@time-wallet/shared-ui/lib';
import type { CalendarEvent } from '../api/events-api';
import { taskBlockId } from '../lib/task-blocks';
import { lockMarkElement } from './lock-mark';
import styles from './week-grid.module.css';
import markerStyles from './repeat-marker.module.css';

/** What FullCalendar keeps on a task's block, to tell it from an event's. */
export interface TaskBlockProps {
  kind: 'task';
  taskId: string;
  done: boolean;
  /** The repeat marker's name when the task repeats. */
  repeats?: string;
}

/** What a block of a series carries: its marker's name ('Repeats: Weekly on Monday'), worded once per item. */
export function repeatsOf(item: { rrule: string; start: string | null }): { repeats?: string } {
  if (!item.rrule) return {};
  return { repeats: `Repeats: ${describeRule(item.rrule, item.start ? new Date(item.start) : new Date())}` };
}

/** What an event's block carries: its repeat marker's name when it repeats, and for a subscribed event its lock. */
export interface EventBlockProps {
  repeats?: string;
  readOnly?: true;
}

/** The colour of a subscribed event whose calendar is not read yet. */
export const UNKNOWN_CALENDAR_COLOR = 'var(--color-border-strong)';

/**
 * An event as a block. A subscribed one (read-only) is drawn like a task, its calendar's colour as a stripe over a
 * tint of it in the page's text colour, with a lock, and cannot be dragged or resized: it changes only at its source.
 */
export function eventBlockInput(event: CalendarEvent, calendarColor: string): EventInput {
  const timing = { id: event._id, title: event.title, start: event.start, end: event.end };
  if (!event.readOnly) {
    const extendedProps: EventBlockProps = repeatsOf(event);
    return { ...timing, classNames: event.source === 'ics' ? [styles.importedEvent] : [], extendedProps };
  }
  const extendedProps: EventBlockProps = { ...repeatsOf(event), readOnly: true };
  return {
    ...timing,
    // Neither its start nor its length: FullCalendar offers no drag and no resize handle.
    editable: false,
    classNames: [styles.subscribedEvent],
    borderColor: calendarColor,
    backgroundColor: `color-mix(in srgb, ${calendarColor} 16%, var(--color-surface))`,
    extendedProps,
  };
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
  const extendedProps: TaskBlockProps = {
    kind: 'task',
    taskId: task._id,
    done: task.done,
    ...repeatsOf(task),
  };
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

/** The repeat marker: a glyph named for screen readers, so a series is not told by the glyph alone. */
function repeatMarker(name: string): HTMLElement {
  const marker = element('span', markerStyles.marker, '↻');
  marker.setAttribute('role', 'img');
  marker.setAttribute('aria-label', name);
  marker.title = name;
  return marker;
}

/**
 * An event block of a series or of a subscribed calendar: FullCalendar's own time and title (same classes, so its
 * styles hold), then the lock and the repeat marker. Other events keep FullCalendar's default content.
 */
function markedEventContent(
  title: string,
  timeText: string,
  { repeats, readOnly }: EventBlockProps,
): { domNodes: Node[] } {
  const frame = element('div', 'fc-event-main-frame', '');
  const titleRow = element('div', `fc-event-title-container ${markerStyles.row ?? ''}`, '');
  titleRow.append(element('div', 'fc-event-title', title));
  if (readOnly) titleRow.append(lockMarkElement());
  if (repeats) titleRow.append(repeatMarker(repeats));
  if (timeText) frame.append(element('div', 'fc-event-time', timeText));
  frame.append(titleRow);
  return { domNodes: [frame] };
}

/**
 * A task block's content: a checkbox glyph and the word "Task" for screen readers, so a task never differs from an
 * event by colour alone; the title first, as a short block shows one line. Plain DOM, not React: 100 blocks stay
 * cheap to draw and to drag. Events keep the default.
 */
export function renderBlockContent({ event, timeText }: EventContentArg): true | { domNodes: Node[] } {
  const props = event.extendedProps;
  if (!isTaskBlock(props)) {
    const marks: EventBlockProps = {
      ...(typeof props.repeats === 'string' ? { repeats: props.repeats } : {}),
      ...(props.readOnly === true ? { readOnly: true } : {}),
    };
    return marks.repeats || marks.readOnly ? markedEventContent(event.title, timeText, marks) : true;
  }
  const { done, repeats } = props;
  const content = document.createElement('div');
  content.className = styles.taskContent ?? '';
  content.append(
    element('span', styles.taskGlyph, done ? '☑' : '☐'),
    element('span', styles.srOnly, done ? 'Done task: ' : 'Task: '),
    element('span', styles.taskTitle, event.title),
    element('span', styles.taskTime, timeText),
  );
  if (repeats) content.append(repeatMarker(repeats));
  content.firstElementChild?.setAttribute('aria-hidden', 'true');
  return { domNodes: [content] };
}
