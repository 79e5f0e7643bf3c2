import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import FullCalendar from '@fullcalendar/react';
import dayGridPlugin from '@fullcalendar/daygrid';
import interactionPlugin from '@fullcalendar/interaction';
import type { DatesSetArg, DayCellMountArg, EventClickArg, EventInput } from '@fullcalendar/core';
import type { DateClickArg } from '@fullcalendar/interaction';
import { toLocalDateKey } from '@time-wallet/shared-ui/lib';
import type { CalendarEvent } from '../api/events-api';
import type { CalendarLooks } from '../lib/calendars';
import { claimFullCalendarStyleSheet } from '../lib/fullcalendar-style-sheet';
import { TITLE_FORMAT } from '../lib/view-days';
import { blockTimeText } from './grid-sync';
import { GridToolbar } from './grid-toolbar';
import { UNKNOWN_CALENDAR_COLOR, eventBlockInput, renderBlockContent } from './task-event';
import styles from './week-grid.module.css';
import monthStyles from './month-grid.module.css';

export interface MonthGridProps {
  events: CalendarEvent[];
  /** Each calendar's colour: subscribed events are drawn in it, with a lock. */
  calendarLooks: CalendarLooks;
  /** The month shown first, and moved to each time a new object is given ("Go to date"). */
  shownDay: { day: string };
  onRangeChange: (start: Date, end: Date) => void;
  onOpenEvent: (eventId: string) => void;
  /** A day clicked: the page opens its week, where times can be picked. */
  onOpenDay: (day: string) => void;
  loading: boolean;
}

const PLUGINS = [dayGridPlugin, interactionPlugin];
/** At most this many blocks a day, then "+N more", so a busy day does not stretch its week. */
const EVENTS_PER_DAY = 3;

/**
 * The month at a glance: six weeks of days (at most 42, so the events read stays within the server's 62 days), each
 * with its events; a click on an event edits it, a click on a day opens its week. Read-only otherwise: moving
 * happens on the week grid, where the time of day can be chosen.
 */
export function MonthGrid({
  events,
  calendarLooks,
  shownDay,
  onRangeChange,
  onOpenEvent,
  onOpenDay,
  loading,
}: MonthGridProps) {
  const calendarRef = useRef<FullCalendar>(null);
  const [initialDay] = useState(shownDay.day);
  const [shown, setShown] = useState({ title: '', containsToday: true });
  const calendarApi = () => calendarRef.current?.getApi();
  useLayoutEffect(() => claimFullCalendarStyleSheet(), []);
  // The first day is the calendar's initialDate; moving to it again while mounting would flush a render in one.
  const dayShown = useRef(shownDay);
  useEffect(() => {
    if (shownDay === dayShown.current) return;
    dayShown.current = shownDay;
    // After the commit: FullCalendar's React view renders with flushSync, which React refuses inside an effect.
    const { day } = shownDay;
    queueMicrotask(() => calendarRef.current?.getApi().gotoDate(day));
  }, [shownDay]);

  const inputs = useMemo<EventInput[]>(
    () =>
      events.map((event) => {
        if (!event.readOnly) {
          return {
            id: event._id,
            title: event.title,
            start: event.start,
            end: event.end,
            allDay: event.allDay,
            classNames: event.source === 'ics' ? [styles.importedEvent] : [],
          };
        }
        const color = calendarLooks.get(event.calendarId)?.color ?? UNKNOWN_CALENDAR_COLOR;
        // A block, not a dot: the tint of its calendar's colour behind the title tells it apart.
        return { ...eventBlockInput(event, color), allDay: event.allDay, display: 'block' };
      }),
    [events, calendarLooks],
  );

  const latest = useRef({ onRangeChange, onOpenEvent, onOpenDay });
  useLayoutEffect(() => {
    latest.current = { onRangeChange, onOpenEvent, onOpenDay };
  });
  const handlers = useMemo(
    () => ({
      datesSet: ({ start, end, view }: DatesSetArg) => {
        const now = Date.now();
        const month = view.currentStart;
        setShown({
          title: view.title,
          containsToday: month.getTime() <= now && now < view.currentEnd.getTime(),
        });
        latest.current.onRangeChange(start, end);
      },
      eventClick: ({ event, jsEvent }: EventClickArg) => {
        jsEvent.preventDefault();
        latest.current.onOpenEvent(event.id);
      },
      dateClick: ({ date }: DateClickArg) => latest.current.onOpenDay(toLocalDateKey(date)),
      navLinkDayClick: (date: Date) => latest.current.onOpenDay(toLocalDateKey(date)),
      // FullCalendar's day links are <a> without href, which are no links to assistive technology; they are
      // focusable and answer Enter already. The cell it names after its number holds the events' titles too, so
      // its name would not contain its text (WCAG 2.5.3): the link names the day, the cell stays unnamed.
      dayCellDidMount: ({ el }: DayCellMountArg) => {
        el.querySelector('.fc-daygrid-day-number[data-navlink]')?.setAttribute('role', 'link');
        el.removeAttribute('aria-labelledby');
      },
    }),
    [],
  );

  return (
    <div className={`${styles.grid} ${monthStyles.month}`}>
      <GridToolbar
        unit="month"
        title={shown.title}
        containsToday={shown.containsToday}
        loading={loading}
        onToday={() => calendarApi()?.today()}
        onPrevious={() => calendarApi()?.prev()}
        onNext={() => calendarApi()?.next()}
      />
      <div className={styles.body} aria-busy={loading || undefined}>
        <FullCalendar
          ref={calendarRef}
          plugins={PLUGINS}
          initialView="dayGridMonth"
          initialDate={initialDay}
          headerToolbar={false}
          titleFormat={TITLE_FORMAT}
          firstDay={0}
          fixedWeekCount
          // The day numbers are links (keyboard-reachable) to the day's week.
          navLinks
          dayMaxEvents={EVENTS_PER_DAY}
          eventTimeFormat={blockTimeText}
          eventContent={renderBlockContent}
          eventInteractive
          height="100%"
          events={inputs}
          {...handlers}
        />
      </div>
    </div>
  );
}
