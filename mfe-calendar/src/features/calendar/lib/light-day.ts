import { DEFAULT_CATEGORY_COLOR, type Task } from '@time-wallet/api';
import { addDays, formatHHMM24 } from '@time-wallet/shared-ui/lib';
import type { CalendarEvent } from '../api/events-api';
import { UNKNOWN_CALENDAR_COLOR } from '../components/task-event';
import type { CalendarLooks } from './calendars';
import { DAY_MINUTES, isOnGrid } from './task-blocks';
import { localMidnightOf } from './view-days';

/** One timed block of the phone's light day view (drawn before FullCalendar), in minutes from the day's midnight. */
export interface LightBlock {
  kind: 'event' | 'task';
  /** The event's or the task's id: what a tap opens. */
  itemId: string;
  title: string;
  /** The block's start and end as shown, e.g. '09:30 - 09:45'. */
  timeText: string;
  startMinute: number;
  endMinute: number;
  /** The stripe colour of a task (its category's) or of a subscribed event (its calendar's); none for an own event. */
  color?: string;
  done?: boolean;
  readOnly?: boolean;
  imported?: boolean;
  /** Side by side with the blocks it overlaps: its place (0-based) among `lanes`. */
  lane: number;
  lanes: number;
}

/** Minutes from a local midnight as the hours' labels read them (a day that changes its clock still reads 24 h). */
const clockMinutes = (date: Date) => date.getHours() * 60 + date.getMinutes();

/**
 * The part of `start`-`end` inside the local day, in minutes from its midnight by the clock, or null when it is
 * outside the day or empty. A block crossing midnight is cut at the day's edges, as FullCalendar draws it.
 */
function minutesInDay(day: string, start: string, end: string) {
  const dayStart = localMidnightOf(day).getTime();
  const dayEnd = localMidnightOf(addDays(day, 1)).getTime();
  const from = Math.max(Date.parse(start), dayStart);
  const to = Math.min(Date.parse(end), dayEnd);
  if (!(to > from)) return null;
  return {
    startMinute: clockMinutes(new Date(from)),
    endMinute:
      to === dayEnd ? DAY_MINUTES : Math.max(clockMinutes(new Date(to)), clockMinutes(new Date(from)) + 1),
  };
}

/**
 * Lanes for overlapping blocks, as a time grid lays them out: blocks sorted by start (longer first on a tie) join the
 * first lane that is free at their start; a run of blocks that overlap one another shares one lane count.
 */
export function layOutLanes<T extends { startMinute: number; endMinute: number }>(
  blocks: readonly T[],
): (T & { lane: number; lanes: number })[] {
  const sorted = [...blocks].sort((a, b) => a.startMinute - b.startMinute || b.endMinute - a.endMinute);
  const placed: (T & { lane: number; lanes: number })[] = [];
  let run: (T & { lane: number; lanes: number })[] = [];
  let laneEnds: number[] = [];
  let runEnd = -Infinity;
  const closeRun = () => {
    for (const block of run) block.lanes = laneEnds.length;
    run = [];
    laneEnds = [];
  };
  for (const block of sorted) {
    if (block.startMinute >= runEnd) closeRun();
    let lane = laneEnds.findIndex((laneEnd) => laneEnd <= block.startMinute);
    if (lane === -1) lane = laneEnds.push(block.endMinute) - 1;
    else laneEnds[lane] = block.endMinute;
    runEnd = Math.max(runEnd, block.endMinute);
    const withLane = { ...block, lane, lanes: 1 };
    run.push(withLane);
    placed.push(withLane);
  }
  closeRun();
  return placed;
}

/** The day's timed events and scheduled tasks as the light day view draws them, in the grid's colours. */
export function lightBlocksOf({
  day,
  events,
  tasks,
  categoryColors,
  calendarLooks,
}: {
  day: string;
  events: readonly CalendarEvent[];
  tasks: readonly Task[];
  categoryColors: ReadonlyMap<string, string>;
  calendarLooks: CalendarLooks;
}): LightBlock[] {
  const blocks: Omit<LightBlock, 'lane' | 'lanes'>[] = [];
  const timeText = (start: string, end: string) => `${formatHHMM24(start)} - ${formatHHMM24(end)}`;
  for (const event of events) {
    if (event.allDay) continue;
    const minutes = minutesInDay(day, event.start, event.end);
    if (!minutes) continue;
    blocks.push({
      kind: 'event',
      itemId: event._id,
      title: event.title,
      timeText: timeText(event.start, event.end),
      ...minutes,
      ...(event.readOnly
        ? { readOnly: true, color: calendarLooks.get(event.calendarId)?.color ?? UNKNOWN_CALENDAR_COLOR }
        : { imported: event.source === 'ics' }),
    });
  }
  for (const task of tasks) {
    if (!isOnGrid(task) || !task.start || !task.end) continue;
    const minutes = minutesInDay(day, task.start, task.end);
    if (!minutes) continue;
    blocks.push({
      kind: 'task',
      itemId: task._id,
      title: task.title,
      timeText: timeText(task.start, task.end),
      ...minutes,
      color: categoryColors.get(task.categoryId) ?? DEFAULT_CATEGORY_COLOR,
      done: task.done,
    });
  }
  return layOutLanes(blocks);
}
