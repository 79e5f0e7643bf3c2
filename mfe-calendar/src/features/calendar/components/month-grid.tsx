import { useEffect, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { createPortal } from 'react-dom';
import FullCalendar from '@fullcalendar/react';
import dayGridPlugin from '@fullcalendar/daygrid';
import interactionPlugin from '@fullcalendar/interaction';
import type { DatesSetArg, DayCellMountArg, EventClickArg, EventInput } from '@fullcalendar/core';
import type { DateClickArg } from '@fullcalendar/interaction';
import { DEFAULT_CATEGORY_COLOR, type LedgerDay, type Task } from '@time-wallet/api';
import { toLocalDateKey } from '@time-wallet/shared-ui/lib';
import type { CalendarEvent } from '../api/events-api';
import type { CalendarLooks } from '../lib/calendars';
import { CellSlots } from '../lib/cell-slots';
import { DayLedgerStore } from '../lib/day-ledger-store';
import { isOnGrid } from '../lib/task-blocks';
import { claimFullCalendarStyleSheet } from '../lib/fullcalendar-style-sheet';
import { TITLE_FORMAT } from '../lib/view-days';
import { blockTimeText } from './grid-sync';
import { GridToolbar } from './grid-toolbar';
import {
  UNKNOWN_CALENDAR_COLOR,
  eventBlockInput,
  isTaskBlock,
  renderBlockContent,
  taskEventInput,
} from './task-event';
import { DayFigureLine, DayLedgerContext } from './day-figure-line';
import styles from './week-grid.module.css';
import monthStyles from './month-grid.module.css';

export interface MonthGridProps {
  events: CalendarEvent[];
  /** Each calendar's colour: subscribed events are drawn in it, with a lock. */
  calendarLooks: CalendarLooks;
  /** The visible days' tasks: the scheduled ones that are not dismissed are drawn, as on the week grid. */
  tasks: readonly Task[];
  categoryColors: ReadonlyMap<string, string>;
  /** The ledger of the visible days (each day's figure, as the week's day headers show it), and its read. */
  ledgerDays: readonly LedgerDay[];
  ledgerVersion: unknown;
  /** The month shown first, and moved to each time a new object is given ("Go to date"). */
  shownDay: { day: string };
  onRangeChange: (start: Date, end: Date) => void;
  onOpenEvent: (eventId: string) => void;
  onOpenTask: (taskId: string) => void;
  /** A day clicked: the page opens its week, where times can be picked. */
  onOpenDay: (day: string) => void;
  loading: boolean;
}

const PLUGINS = [dayGridPlugin, interactionPlugin];
/** At most this many blocks a day, then "+N more", so a busy day does not stretch its week. */
const EVENTS_PER_DAY = 3;

const FIGURE_SLOT = 'data-day-figure';

/** A day cell's place for its figure: a line under the day's number, across the cell. */
function addFigureSlot({ el, date }: DayCellMountArg, slots: CellSlots) {
  const top = el.querySelector('.fc-daygrid-day-top');
  if (!top) return;
  const slot = document.createElement('div');
  slot.setAttribute(FIGURE_SLOT, '');
  slot.className = monthStyles.figureSlot ?? '';
  top.after(slot);
  slots.add(toLocalDateKey(date), slot);
}

function removeFigureSlot({ el, date }: DayCellMountArg, slots: CellSlots) {
  const slot = el.querySelector<HTMLElement>(`[${FIGURE_SLOT}]`);
  if (slot) slots.remove(toLocalDateKey(date), slot);
}

/**
 * The month at a glance: six weeks of days (at most 42, so the reads stay within the server's 62 days), each with
 * its events, its scheduled tasks and the figure the week's day header shows; a click on an event edits it, on a
 * task opens its dialog, on a day opens its week. Read-only otherwise: moving happens on the week grid, where the
 * time of day can be chosen.
 */
export function MonthGrid({
  events,
  calendarLooks,
  tasks,
  categoryColors,
  ledgerDays,
  ledgerVersion,
  shownDay,
  onRangeChange,
  onOpenEvent,
  onOpenTask,
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

  // The figures are the ledger's, as in the week's headers; nothing is dragged here, so there is no preview.
  const [store] = useState(() => new DayLedgerStore());
  useLayoutEffect(() => store.setData(ledgerDays, [], ledgerVersion), [store, ledgerDays, ledgerVersion]);
  const [slots] = useState(() => new CellSlots());
  const figureSlots = useSyncExternalStore(slots.subscribe, slots.snapshot);

  const inputs = useMemo<EventInput[]>(
    () => [
      ...events.map((event) => {
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
      // As on the week grid: a stripe of the category's colour over its tint, the checkbox glyph, the time.
      ...tasks.filter(isOnGrid).map((task) => ({
        ...taskEventInput(task, categoryColors.get(task.categoryId) ?? DEFAULT_CATEGORY_COLOR),
        display: 'block',
      })),
    ],
    [events, calendarLooks, tasks, categoryColors],
  );

  const latest = useRef({ onRangeChange, onOpenEvent, onOpenTask, onOpenDay });
  useLayoutEffect(() => {
    latest.current = { onRangeChange, onOpenEvent, onOpenTask, onOpenDay };
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
        const props = event.extendedProps;
        if (isTaskBlock(props)) latest.current.onOpenTask(props.taskId);
        else latest.current.onOpenEvent(event.id);
      },
      dateClick: ({ date }: DateClickArg) => latest.current.onOpenDay(toLocalDateKey(date)),
      navLinkDayClick: (date: Date) => latest.current.onOpenDay(toLocalDateKey(date)),
      // FullCalendar's day links are <a> without href, which are no links to assistive technology; they are
      // focusable and answer Enter already. The cell it names after its number holds the events' titles too, so
      // its name would not contain its text (WCAG 2.5.3): the link names the day, the cell stays unnamed.
      dayCellDidMount: (cell: DayCellMountArg) => {
        cell.el.querySelector('.fc-daygrid-day-number[data-navlink]')?.setAttribute('role', 'link');
        cell.el.removeAttribute('aria-labelledby');
        addFigureSlot(cell, slots);
      },
      dayCellWillUnmount: (cell: DayCellMountArg) => removeFigureSlot(cell, slots),
    }),
    [slots],
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
        <DayLedgerContext.Provider value={store}>
          {[...figureSlots].map(([day, slot]) =>
            createPortal(<DayFigureLine dateKey={day} className={monthStyles.figure} />, slot, day),
          )}
        </DayLedgerContext.Provider>
      </div>
    </div>
  );
}
