import { useEffect, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { claimFullCalendarStyleSheet } from '../lib/fullcalendar-style-sheet';
import FullCalendar from '@fullcalendar/react';
import timeGridPlugin from '@fullcalendar/timegrid';
import interactionPlugin from '@fullcalendar/interaction';
import type {
  DateSelectArg,
  DayCellMountArg,
  DatesSetArg,
  DayHeaderContentArg,
  EventClickArg,
  EventDropArg,
  EventInput,
} from '@fullcalendar/core';
import type { DateClickArg, EventResizeDoneArg } from '@fullcalendar/interaction';
import { Button, IconButton } from '@time-wallet/shared-ui';
import type { CalendarEvent, EventTiming } from '../api/events-api';
import { timingAfterMove } from '../lib/event-dates';
import { useNarrowScreen } from '../hooks/use-narrow-screen';
import styles from './week-grid.module.css';

export interface WeekGridProps {
  events: CalendarEvent[];
  onRangeChange: (start: Date, end: Date) => void;
  onSelectRange: (start: Date, end: Date, allDay: boolean) => void;
  onOpenEvent: (eventId: string) => void;
  /** Resolves false when the server refused the change: the grid then puts the event back. */
  onMoveEvent: (timing: EventTiming) => Promise<boolean>;
  loading: boolean;
}

const HOURS_24 = { hour: '2-digit', minute: '2-digit', hour12: false } as const;

function DayHeader({ date }: DayHeaderContentArg) {
  return (
    <span className={styles.dayHeader}>
      <span className={styles.dayName}>
        {date.toLocaleDateString('en-US', { weekday: 'short' }).toUpperCase()}
      </span>
      <span className={styles.dayNumber}>{date.getDate()}</span>
    </span>
  );
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
  button.textContent = `Add an event on ${date.toLocaleDateString('en-US', { weekday: 'long', month: 'long', day: 'numeric' })}`;
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

/** The week time grid (one day on phones): select to create, click to edit, drag and resize to move. */
export function WeekGrid({
  events,
  onRangeChange,
  onSelectRange,
  onOpenEvent,
  onMoveEvent,
  loading,
}: WeekGridProps) {
  const narrow = useNarrowScreen();
  const calendarRef = useRef<FullCalendar>(null);
  const [shown, setShown] = useState({ title: '', containsToday: true });
  const calendarApi = () => calendarRef.current?.getApi();
  const unit = narrow ? 'day' : 'week';
  const selectRangeRef = useRef(onSelectRange);
  useEffect(() => {
    selectRangeRef.current = onSelectRange;
  }, [onSelectRange]);

  useEffect(() => {
    calendarRef.current?.getApi().changeView(narrow ? 'timeGridDay' : 'timeGridWeek');
  }, [narrow]);

  const eventInputs = useMemo<EventInput[]>(
    () =>
      events
        .filter((event) => !event.allDay)
        .map((event) => ({
          id: event._id,
          title: event.title,
          start: event.start,
          end: event.end,
          classNames: event.source === 'ics' ? [styles.importedEvent] : [],
        })),
    [events],
  );

  const move = async ({ event, revert }: EventDropArg | EventResizeDoneArg) => {
    if (!event.start) return;
    const saved = await onMoveEvent({
      id: event.id,
      ...timingAfterMove(event.start, event.end),
      allDay: event.allDay,
    });
    if (!saved) revert();
  };

  return (
    <div className={styles.grid}>
      {/* Our own toolbar: FullCalendar's icon font is refused by the page's CSP and its icons have no names. */}
      <div className={styles.toolbar}>
        <div className={styles.navigation}>
          <Button variant="secondary" disabled={shown.containsToday} onClick={() => calendarApi()?.today()}>
            today
          </Button>
          <IconButton
            label={`Previous ${unit}`}
            className={styles.navButton}
            onClick={() => calendarApi()?.prev()}
          >
            <span aria-hidden="true">‹</span>
          </IconButton>
          <IconButton
            label={`Next ${unit}`}
            className={styles.navButton}
            onClick={() => calendarApi()?.next()}
          >
            <span aria-hidden="true">›</span>
          </IconButton>
        </div>
        <h2 className={styles.title} aria-live="polite">
          {shown.title}
        </h2>
        <p className={styles.status} role="status">
          {loading ? 'Loading events...' : ''}
        </p>
      </div>
      <FullCalendarStyleSheet />
      <div className={styles.body} aria-busy={loading || undefined}>
        <FullCalendar
          ref={calendarRef}
          plugins={[timeGridPlugin, interactionPlugin]}
          initialView={narrow ? 'timeGridDay' : 'timeGridWeek'}
          headerToolbar={false}
          titleFormat={{ year: 'numeric', month: 'long' }}
          firstDay={0}
          allDaySlot={false}
          slotDuration="00:30:00"
          slotMinTime="00:00:00"
          slotMaxTime="24:00:00"
          scrollTime="06:00:00"
          slotLabelFormat={HOURS_24}
          eventTimeFormat={HOURS_24}
          defaultTimedEventDuration="01:00"
          nowIndicator
          selectable
          selectMirror
          editable
          eventInteractive
          height="100%"
          dayHeaderContent={DayHeader}
          dayCellDidMount={(cell: DayCellMountArg) => makeDayColumnReachable(cell, selectRangeRef)}
          events={eventInputs}
          datesSet={({ start, end, view }: DatesSetArg) => {
            const now = Date.now();
            setShown({ title: view.title, containsToday: start.getTime() <= now && now < end.getTime() });
            onRangeChange(start, end);
          }}
          select={({ start, end, allDay, view }: DateSelectArg) => {
            view.calendar.unselect();
            onSelectRange(start, end, allDay);
          }}
          // A tap on a phone: FullCalendar selects only after a long press, which nobody finds; a tap makes a
          // one-hour draft at the slot (a mouse click already selects the slot, so only touch is handled here).
          dateClick={({ date, allDay, jsEvent }: DateClickArg) => {
            if (jsEvent.type.startsWith('touch')) onSelectRange(date, date, allDay);
          }}
          eventClick={({ event, jsEvent }: EventClickArg) => {
            jsEvent.preventDefault();
            onOpenEvent(event.id);
          }}
          eventDrop={move}
          eventResize={move}
        />
      </div>
    </div>
  );
}
