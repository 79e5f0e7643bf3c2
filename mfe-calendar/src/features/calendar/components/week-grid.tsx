import {
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type RefObject,
} from 'react';
import { createPortal } from 'react-dom';
import { claimFullCalendarStyleSheet } from '../lib/fullcalendar-style-sheet';
import FullCalendar from '@fullcalendar/react';
import timeGridPlugin from '@fullcalendar/timegrid';
import interactionPlugin from '@fullcalendar/interaction';
import type {
  CalendarApi,
  DateSelectArg,
  DateSpanApi,
  DayCellMountArg,
  DatesSetArg,
  DayHeaderContentArg,
  EventApi,
  EventClickArg,
  EventDropArg,
  EventInput,
} from '@fullcalendar/core';
import type {
  DateClickArg,
  EventDragStartArg,
  EventDragStopArg,
  EventReceiveArg,
  EventResizeDoneArg,
  EventResizeStartArg,
} from '@fullcalendar/interaction';
import {
  DEFAULT_CATEGORY_COLOR,
  type LedgerDay,
  type Task,
  type TaskPlacement,
  type TimeEntry,
} from '@time-wallet/api';
import { formatDate, toLocalDateKey } from '@time-wallet/shared-ui/lib';
import type { CalendarEvent, EventTiming } from '../api/events-api';
import { countsInBudget, type CalendarLooks } from '../lib/calendars';
import { timingAfterMove } from '../lib/event-dates';
import { SCROLL_TIME, TITLE_FORMAT } from '../lib/view-days';
import { CellSlots } from '../lib/cell-slots';
import { DayLedgerStore } from '../lib/day-ledger-store';
import { DragSession } from '../lib/drag-session';
import { isOnGrid, timeBlocksOf } from '../lib/task-blocks';
import { useNarrowScreen } from '../hooks/use-narrow-screen';
import { blockTimeText, memoPerItem, syncBlocks } from './grid-sync';
import { GridToolbar } from './grid-toolbar';
import {
  UNKNOWN_CALENDAR_COLOR,
  eventBlockInput,
  isTaskBlock,
  renderBlockContent,
  taskEventInput,
} from './task-event';
import {
  MAX_SIDE_BY_SIDE,
  announceMoreLink,
  makePopoverDialog,
  moreLinkHint,
  renderMoreLinkContent,
  returnFocusFromPopover,
} from './more-links';
import { DayHeaderFace } from './day-header';
import { DayFigureLine, DayLedgerContext } from './day-figure-line';
import { TrackedLane, type EntryMove } from './tracked-lane';
import styles from './week-grid.module.css';

export interface WeekGridProps {
  events: CalendarEvent[];
  /** The visible range's tasks: the scheduled ones that are not dismissed are drawn. */
  tasks: readonly Task[];
  categoryColors: ReadonlyMap<string, string>;
  /** Each calendar's colour and switch: subscribed events are drawn in their calendar's colour, read-only. */
  calendarLooks: CalendarLooks;
  /** The ledger of the visible days, and what changes each time it is read (ends a dropped move's preview). */
  ledgerDays: LedgerDay[];
  ledgerVersion: unknown;
  onRangeChange: (start: Date, end: Date) => void;
  onSelectRange: (start: Date, end: Date, allDay: boolean) => void;
  onOpenEvent: (eventId: string) => void;
  onOpenTask: (taskId: string) => void;
  /** Resolves false when the server refused the change: the grid then puts the event back. */
  onMoveEvent: (timing: EventTiming) => Promise<boolean>;
  /** Resolves false when the server refused the change: the grid then puts the task back. */
  onPlaceTask: (placement: TaskPlacement) => Promise<boolean>;
  /** Where a task dragged off the grid is unscheduled. */
  unscheduledPanelRef: RefObject<HTMLElement | null>;
  loading: boolean;
  /** The week shown first, and moved to each time a new object is given ("Go to date", a day of the month view). */
  shownDay?: { day: string };
  /** "Show tracked": the visible range's time entries, drawn as a thin bar beside the plan; null while off. */
  tracked?: TrackedTime | null;
}

export interface TrackedTime {
  entries: readonly TimeEntry[];
  /** Each entry's task title by task id, for the bars' names. */
  taskTitles: ReadonlyMap<string, string>;
  onOpenEntry: (entryId: string) => void;
  /** Resolves false when the server refused the change: the bar then goes back. */
  onMoveEntry: (move: EntryMove) => Promise<boolean>;
}

const NOW_TICK_MS = 60_000;

/** The instant running entries are drawn up to: now, moved on each minute while one runs. */
function useNow(running: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    const tick = () => setNow(Date.now());
    // At once too: a timer started since the last tick would otherwise be drawn up to an earlier now.
    const first = setTimeout(tick, 0);
    const timer = setInterval(tick, NOW_TICK_MS);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, [running]);
  return now;
}

/** A day column's place for its tracked lane, inside the column's frame (which the lane's bars are placed in). */
function addLaneSlot({ el, date }: DayCellMountArg, slots: CellSlots) {
  const frame = el.classList.contains('fc-timegrid-col') ? el.querySelector('.fc-timegrid-col-frame') : null;
  if (!frame) return;
  const slot = document.createElement('div');
  slot.setAttribute('data-lane-slot', '');
  frame.append(slot);
  slots.add(toLocalDateKey(date), slot);
}

function removeLaneSlot({ el, date }: DayCellMountArg, slots: CellSlots) {
  const slot = el.querySelector<HTMLElement>('[data-lane-slot]');
  if (slot) slots.remove(toLocalDateKey(date), slot);
}

/** The tracked lanes of the columns on screen, drawn into FullCalendar's columns. */
function TrackedLanes({ slots, tracked }: { slots: CellSlots; tracked: TrackedTime }) {
  const laneSlots = useSyncExternalStore(slots.subscribe, slots.snapshot);
  const now = useNow(tracked.entries.some((entry) => entry.end === null));
  return [...laneSlots].map(([day, slot]) =>
    createPortal(
      <TrackedLane
        day={day}
        entries={tracked.entries}
        taskTitles={tracked.taskTitles}
        now={now}
        onOpenEntry={tracked.onOpenEntry}
        onMoveEntry={tracked.onMoveEntry}
      />,
      slot,
      day,
    ),
  );
}

// Options FullCalendar compares by identity: made once, so a render of the page does not re-render the calendar.
const HOURS_24 = { hour: '2-digit', minute: '2-digit', hour12: false } as const;
const PLUGINS = [timeGridPlugin, interactionPlugin];

// Called by FullCalendar as a function, not rendered as a component: hooks live in DayFigureLine.
function DayHeader({ date }: DayHeaderContentArg) {
  return <DayHeaderFace date={date} figureLine={<DayFigureLine dateKey={toLocalDateKey(date)} />} />;
}

const KEYBOARD_EVENT_HOUR = 9;

/**
 * Each day column holds a button, its first tab stop, that adds a one-hour event that day at 09:00; focused, it sits
 * in the scrolling hours, so arrow keys scroll them. A button of its own, not a named column: a column's name would
 * not contain the event titles shown in it (WCAG 2.5.3, axe's label-content-name-mismatch).
 */
function makeDayColumnReachable(
  { el, date }: DayCellMountArg,
  addEventAt: RefObject<WeekGridProps['onSelectRange']>,
) {
  if (!el.classList.contains('fc-timegrid-col')) return;
  const button = document.createElement('button');
  button.type = 'button';
  button.className = styles.addInColumn ?? '';
  button.textContent = `Add an event on ${formatDate(date, 'en-US', { weekday: 'long', month: 'long', day: 'numeric' })}`;
  button.addEventListener('click', () => {
    const start = new Date(date);
    start.setHours(KEYBOARD_EVENT_HOUR, 0, 0, 0);
    addEventAt.current(start, start, false);
  });
  el.prepend(button);
}

/** FullCalendar's sheet is this page's alone: claimed before the calendar mounts, removed when it leaves. */
function FullCalendarStyleSheet() {
  useLayoutEffect(() => claimFullCalendarStyleSheet(), []);
  return null;
}

/**
 * The week time grid (one day on phones): select to create, click to edit, drag and resize to move; the visible
 * range's tasks beside the events, dropped here from the unscheduled list or dragged back to it. Day headers show
 * the hours left, previewed live during a drag without re-rendering the calendar.
 */
export function WeekGrid({
  events,
  tasks,
  categoryColors,
  calendarLooks,
  ledgerDays,
  ledgerVersion,
  onRangeChange,
  onSelectRange,
  onOpenEvent,
  onOpenTask,
  onMoveEvent,
  onPlaceTask,
  unscheduledPanelRef,
  loading,
  shownDay,
  tracked = null,
}: WeekGridProps) {
  const narrow = useNarrowScreen();
  const calendarRef = useRef<FullCalendar>(null);
  const bodyRef = useRef<HTMLDivElement>(null);
  const [shown, setShown] = useState({ title: '', containsToday: true });
  const calendarApi = () => calendarRef.current?.getApi();
  const unit = narrow ? 'day' : 'week';
  const selectRangeRef = useRef(onSelectRange);
  useEffect(() => {
    selectRangeRef.current = onSelectRange;
  }, [onSelectRange]);

  const [store] = useState(() => new DayLedgerStore());
  const [laneSlots] = useState(() => new CellSlots());
  const [session] = useState(() => new DragSession(store));
  useEffect(() => {
    session.setPlaces(
      () => bodyRef.current,
      () => unscheduledPanelRef.current,
    );
    return () => session.stop();
  }, [session, unscheduledPanelRef]);

  // The day headers' preview counts what the server counts: a subscription switched off spends nothing.
  const blocks = useMemo(
    () =>
      timeBlocksOf(
        events.filter((event) => countsInBudget(event, calendarLooks)),
        tasks,
      ),
    [events, tasks, calendarLooks],
  );
  useLayoutEffect(
    () => store.setData(ledgerDays, blocks, ledgerVersion),
    [store, ledgerDays, blocks, ledgerVersion],
  );

  useEffect(() => {
    const calendar = calendarRef.current?.getApi();
    const viewType = narrow ? 'timeGridDay' : 'timeGridWeek';
    // Not at mount, where the calendar shows it already: changing to it again draws the whole grid once more.
    if (calendar && calendar.view.type !== viewType) calendar.changeView(viewType);
  }, [narrow]);
  const [initialDay] = useState(shownDay?.day);
  // The first day is the calendar's initialDate; moving to it again while mounting would flush a render in one.
  const dayShown = useRef(shownDay);
  useEffect(() => {
    if (!shownDay || shownDay === dayShown.current) return;
    dayShown.current = shownDay;
    // After the commit: FullCalendar's React view renders with flushSync, which React refuses inside an effect.
    const { day } = shownDay;
    queueMicrotask(() => calendarRef.current?.getApi().gotoDate(day));
  }, [shownDay]);

  // One input per item, kept identical while the item is (RTK Query keeps unchanged items identical across refetches).
  const [eventInputOf] = useState(() => memoPerItem<CalendarEvent, string>(eventBlockInput));
  const [taskInputOf] = useState(() => memoPerItem<Task, string>(taskEventInput));
  const blockInputs = useMemo<EventInput[]>(
    () => [
      ...events
        .filter((event) => !event.allDay)
        .map((event) =>
          eventInputOf(
            event,
            event.readOnly ? (calendarLooks.get(event.calendarId)?.color ?? UNKNOWN_CALENDAR_COLOR) : '',
          ),
        ),
      ...tasks
        .filter(isOnGrid)
        .map((task) => taskInputOf(task, categoryColors.get(task.categoryId) ?? DEFAULT_CATEGORY_COLOR)),
    ],
    [events, tasks, categoryColors, calendarLooks, eventInputOf, taskInputOf],
  );

  // A task dropped from the list is drawn by FullCalendar at once; the refetched task replaces that copy, which goes
  // as soon as the task is read back scheduled (or is no longer in the range), so the grid never shows it twice.
  const received = useRef(new Map<string, EventApi>());
  useLayoutEffect(() => {
    for (const [taskId, copy] of received.current) {
      const task = tasks.find((candidate) => candidate._id === taskId);
      if (!task || task.scheduled) {
        copy.remove();
        received.current.delete(taskId);
      }
    }
  }, [tasks]);

  // The blocks go to FullCalendar through its API, not as event sources: a new source array would make it parse and
  // draw all ~600 blocks again on every refetch; this way a refetch that changes one block redraws that one.
  // What was given to which calendar: a calendar made again (StrictMode's second mount) starts with no blocks.
  const shownBlocks = useRef<{ calendar: CalendarApi | null; blocks: Map<string, EventInput> }>({
    calendar: null,
    blocks: new Map(),
  });
  useLayoutEffect(() => {
    const calendar = calendarRef.current?.getApi();
    if (!calendar) return;
    const shown = shownBlocks.current;
    if (shown.calendar !== calendar) {
      shown.calendar = calendar;
      shown.blocks = new Map();
    }
    syncBlocks(calendar, shown.blocks, blockInputs);
  }, [blockInputs]);

  // FullCalendar's handlers, kept stable so a render of the page does not reset the calendar's options.
  const latest = useRef({ onMoveEvent, onPlaceTask, onOpenEvent, onOpenTask, onRangeChange });
  useEffect(() => {
    latest.current = { onMoveEvent, onPlaceTask, onOpenEvent, onOpenTask, onRangeChange };
  });
  const handlers = useMemo(() => {
    const unschedule = (taskId: string, blockId: string) => {
      store.pin({ blockId, removed: true });
      void latest.current.onPlaceTask({ id: taskId, unschedule: true }).then((saved) => {
        if (!saved) store.cancel();
      });
    };
    const move = async ({ event, revert }: EventDropArg | EventResizeDoneArg) => {
      if (!event.start) return;
      const timing = timingAfterMove(event.start, event.end);
      store.pin({ blockId: event.id, start: Date.parse(timing.start), end: Date.parse(timing.end) });
      const props = event.extendedProps;
      const saved = isTaskBlock(props)
        ? await latest.current.onPlaceTask({ id: props.taskId, ...timing })
        : await latest.current.onMoveEvent({ id: event.id, ...timing, allDay: event.allDay });
      if (!saved) {
        revert();
        store.cancel();
      }
    };
    return {
      eventAllow: (span: DateSpanApi, moving: EventApi | null) => {
        if (moving) session.over(moving.id, span.start, span.end);
        return true;
      },
      eventDragStart: ({ event }: EventDragStartArg) =>
        session.start(event.id, isTaskBlock(event.extendedProps)),
      eventResizeStart: ({ event }: EventResizeStartArg) => session.start(event.id, false),
      eventDragStop: ({ event, jsEvent }: EventDragStopArg) => {
        const props = event.extendedProps;
        if (isTaskBlock(props) && session.endsOnPanel(jsEvent)) unschedule(props.taskId, event.id);
      },
      eventDrop: (drop: EventDropArg) => void move(drop),
      eventResize: (resize: EventResizeDoneArg) => void move(resize),
      eventReceive: ({ event, revert }: EventReceiveArg) => {
        const props = event.extendedProps;
        if (!isTaskBlock(props) || !event.start) {
          revert();
          return;
        }
        const timing = timingAfterMove(event.start, event.end);
        store.pin({ blockId: event.id, start: Date.parse(timing.start), end: Date.parse(timing.end) });
        received.current.set(props.taskId, event);
        // Only the start: the server makes the block as long as the estimate.
        void latest.current.onPlaceTask({ id: props.taskId, start: timing.start }).then((saved) => {
          if (saved) return;
          received.current.delete(props.taskId);
          revert();
          store.cancel();
        });
      },
      eventClick: ({ event, jsEvent }: EventClickArg) => {
        jsEvent.preventDefault();
        const props = event.extendedProps;
        if (isTaskBlock(props)) latest.current.onOpenTask(props.taskId);
        else latest.current.onOpenEvent(event.id);
      },
      datesSet: ({ start, end, view }: DatesSetArg) => {
        const now = Date.now();
        setShown({ title: view.title, containsToday: start.getTime() <= now && now < end.getTime() });
        latest.current.onRangeChange(start, end);
      },
      select: ({ start, end, allDay, view }: DateSelectArg) => {
        view.calendar.unselect();
        selectRangeRef.current(start, end, allDay);
      },
      // A tap on a phone: FullCalendar selects only after a long press, which nobody finds; a tap makes a
      // one-hour draft at the slot (a mouse click already selects the slot, so only touch is handled here).
      dateClick: ({ date, allDay, jsEvent }: DateClickArg) => {
        if (jsEvent.type.startsWith('touch')) selectRangeRef.current(date, date, allDay);
      },
      dayCellDidMount: (cell: DayCellMountArg) => {
        makeDayColumnReachable(cell, selectRangeRef);
        makePopoverDialog(cell);
        addLaneSlot(cell, laneSlots);
      },
      dayCellWillUnmount: (cell: DayCellMountArg) => {
        removeLaneSlot(cell, laneSlots);
        returnFocusFromPopover(cell);
      },
    };
  }, [store, session, laneSlots]);

  // Made once per set of handlers: a render of the grid (each refetch, the title) then leaves FullCalendar alone,
  // where a re-render of it would make it re-read its options and draw again.
  const calendar = useMemo(
    () => (
      <FullCalendar
        ref={calendarRef}
        plugins={PLUGINS}
        initialView={narrow ? 'timeGridDay' : 'timeGridWeek'}
        initialDate={initialDay}
        headerToolbar={false}
        titleFormat={TITLE_FORMAT}
        firstDay={0}
        allDaySlot={false}
        slotDuration="00:30:00"
        slotMinTime="00:00:00"
        slotMaxTime="24:00:00"
        scrollTime={SCROLL_TIME}
        slotLabelFormat={HOURS_24}
        eventTimeFormat={blockTimeText}
        defaultTimedEventDuration="01:00"
        nowIndicator
        selectable
        selectMirror
        editable
        droppable
        eventInteractive
        eventMaxStack={MAX_SIDE_BY_SIDE}
        moreLinkContent={renderMoreLinkContent}
        moreLinkHint={moreLinkHint}
        moreLinkDidMount={announceMoreLink}
        // A block dropped off the grid snaps back at once: one dropped on the list is then unscheduled.
        dragRevertDuration={0}
        height="100%"
        dayHeaderContent={DayHeader}
        eventContent={renderBlockContent}
        {...handlers}
      />
    ),
    [narrow, handlers, initialDay],
  );

  return (
    <div className={tracked ? `${styles.grid} ${styles.withTracked}` : styles.grid}>
      <GridToolbar
        unit={unit}
        title={shown.title}
        containsToday={shown.containsToday}
        loading={loading}
        onToday={() => calendarApi()?.today()}
        onPrevious={() => calendarApi()?.prev()}
        onNext={() => calendarApi()?.next()}
      />
      <FullCalendarStyleSheet />
      <div ref={bodyRef} className={styles.body} aria-busy={loading || undefined}>
        <DayLedgerContext.Provider value={store}>{calendar}</DayLedgerContext.Provider>
        {tracked && <TrackedLanes slots={laneSlots} tracked={tracked} />}
      </div>
    </div>
  );
}
