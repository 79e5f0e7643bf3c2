import { pageText } from '@time-wallet/api/page-text';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  skipToken,
  ThemeToggle,
  toastUndoableDelete,
  useGetCategoriesQuery,
  useGetLedgerQuery,
  useGetTasksInRangeQuery,
  type ApiError,
  type Calendar,
  type Category,
  type LedgerDay,
  type Task,
  type TimeEntry,
} from '@time-wallet/api';
import { useGetTimeEntriesQuery } from '@time-wallet/api/time-entries';
import { useGetCalendarsQuery } from '../api/calendars-api';
import { Link, useSearchParams } from '@time-wallet/api/router';
import { Banner, Button, PageHeader, SeriesScopeDialog } from '@time-wallet/shared-ui';
import { isDateKey, toLocalDateKey } from '@time-wallet/shared-ui/lib';
import {
  useCreateEventMutation,
  useDeleteEventMutation,
  useRestoreEventMutation,
  useGetEventsQuery,
  useMoveEventMutation,
  useUpdateEventMutation,
  type CalendarEvent,
  type EventRange,
  type EventTiming,
  type SeriesScope,
} from '../api/events-api';
import {
  dayOfDraftTime,
  draftForDay,
  draftFromEvent,
  draftFromSelection,
  eventBodyFromDraft,
  rangeQueryFor,
  type EventDraft,
} from '../lib/event-dates';
import { categoryColorsOf, visibleDaysOf } from '../lib/task-blocks';
import { dayFigureText } from '../lib/day-plan';
import { lightBlocksOf, type LightBlock } from '../lib/light-day';
import { dayInSightOf } from '../lib/view-days';
import { calendarLooksOf, OWN_CALENDAR_FALLBACK_NAME } from '../lib/calendars';
import { useFullCalendarGrids } from '../hooks/use-full-calendar-grids';
import { useNarrowScreen } from '../hooks/use-narrow-screen';
import { useTaskPlacement } from '../hooks/use-task-placement';
import { useTrackedTime } from '../hooks/use-tracked-time';
import type { IcsOutcome } from '../lib/ics-files';
import { AllDayEvents } from './all-day-events';
import { CalendarsDisclosure } from './calendars-disclosure';
import { EventModal } from './event-modal';
import { IcsControls } from './ics-controls';
import { ImportResult } from './import-result';
import { GridFrame, type LightFrame } from './grid-frame';
import { ReadOnlyEventDialog } from './read-only-event-dialog';
import { Switch } from './switch/switch';
import { UnscheduledPanel } from './unscheduled-panel';
import { ViewControls, viewOf, type CalendarView } from './view-controls';
import styles from './calendar-page.module.css';

/** The page's heading and subtitle, one fact in the registry (the shell prerenders them too). */
const TEXT = pageText('calendar');

const EVENT_ERRORS = {
  load: 'Failed to load events',
  create: 'Failed to create event',
  update: 'Failed to update event',
  delete: 'Failed to delete event',
} as const;

type ModalState =
  | { mode: 'create'; draft: EventDraft; key: number }
  | { mode: 'edit'; eventId: string; draft: EventDraft; key: number };

const NO_EVENTS: CalendarEvent[] = [];
const NO_TASKS: Task[] = [];
const NO_CATEGORIES: Category[] = [];
const NO_LEDGER: LedgerDay[] = [];
const NO_CALENDARS: Calendar[] = [];
const NO_ENTRIES: TimeEntry[] = [];

const NO_LIGHT_BLOCKS: LightBlock[] = [];

function sameRange(a: EventRange | null, b: EventRange): boolean {
  return a !== null && a.from === b.from && a.to === b.to;
}

/** The calendar route: a week time grid of the person's events, with its own way back to the app. */
export function CalendarPage() {
  const [range, setRange] = useState<EventRange | null>(null);
  const [modal, setModal] = useState<ModalState | null>(null);
  const [bannerMessage, setBannerMessage] = useState<string | null>(null);
  const [icsOutcome, setIcsOutcome] = useState<IcsOutcome | null>(null);
  const importInputRef = useRef<HTMLInputElement>(null);
  // The view lives in the URL (?view=month), so a reload or a shared link keeps it.
  const [searchParams, setSearchParams] = useSearchParams();
  const view = viewOf(searchParams.get('view'));
  // "Show tracked" is a view setting too: in the URL (?tracked=1), kept by a reload and a shared link.
  const showTracked = searchParams.get('tracked') === '1';
  // A new object each time: the grid shown moves to that day ("Go to date", a view switch, a day of the month). A link
  // may name the day to open on (?date=YYYY-MM-DD: a reminder's, say); anything else opens on today.
  const [shownDay, setShownDay] = useState(() => {
    const linked = searchParams.get('date');
    return { day: linked !== null && isDateKey(linked) ? linked : toLocalDateKey() };
  });
  const narrow = useNarrowScreen();
  // FullCalendar comes after the page's first paint; its frame stands in for it until then. On a phone's day the
  // frame draws the day itself (a light day view) and FullCalendar's first draw, the page's longest task, waits
  // until the grid is used: a block opened, a slot tapped, tracked time shown (docs/decisions/0007).
  const lightDay = narrow && view !== 'month';
  const [gridUsed, setGridUsed] = useState(false);
  const grids = useFullCalendarGrids(!lightDay || gridUsed || showTracked);

  const eventsQuery = useGetEventsQuery(range ?? skipToken);
  const events = eventsQuery.data ?? NO_EVENTS;
  const [createEvent, createState] = useCreateEventMutation();
  const [updateEvent, updateState] = useUpdateEventMutation();
  const [deleteEvent, deleteState] = useDeleteEventMutation();
  const [restoreEvent] = useRestoreEventMutation();
  const [moveEvent] = useMoveEventMutation();

  // Both grids show the visible days' tasks and each day's figure.
  const tasksQuery = useGetTasksInRangeQuery(range ?? skipToken);
  const tasks = tasksQuery.data ?? NO_TASKS;
  const ledgerQuery = useGetLedgerQuery(range ?? skipToken);
  // Each read of the ledger (or failure to read it) ends a dropped move's preview in the day headers.
  const ledgerVersion = ledgerQuery.isError
    ? `failed ${ledgerQuery.startedTimeStamp}`
    : ledgerQuery.fulfilledTimeStamp;
  const categories = useGetCategoriesQuery().data ?? NO_CATEGORIES;
  const categoryColors = useMemo(() => categoryColorsOf(categories), [categories]);
  // Subscribed events are drawn in their calendar's colour; one switched off spends nothing in the day headers.
  const calendars = useGetCalendarsQuery().data ?? NO_CALENDARS;
  const calendarLooks = useMemo(() => calendarLooksOf(calendars), [calendars]);
  const ownCalendarName =
    calendars.find((calendar) => calendar.kind === 'own')?.name ?? OWN_CALENDAR_FALLBACK_NAME;
  // A subscribed event opens read-only: it changes only at its source, and can be copied.
  const [readOnlyEventId, setReadOnlyEventId] = useState<string | null>(null);
  const panelRef = useRef<HTMLElement>(null);
  const gridSectionRef = useRef<HTMLElement>(null);
  const visibleDays = useMemo(() => (range ? visibleDaysOf(range) : []), [range]);

  // Tracked time beside the plan, on the week (or day) grid while "Show tracked" is on.
  const entriesQuery = useGetTimeEntriesQuery(showTracked && view === 'week' && range ? range : skipToken);
  const entries = entriesQuery.data ?? NO_ENTRIES;
  const taskTitles = useMemo(() => new Map(tasks.map((task) => [task._id, task.title])), [tasks]);
  const { openEntry, addForTask, moveEntry, entryDialog } = useTrackedTime({ entries, taskTitles });
  const tracked = useMemo(
    () => (showTracked ? { entries, taskTitles, onOpenEntry: openEntry, onMoveEntry: moveEntry } : null),
    [showTracked, entries, taskTitles, openEntry, moveEntry],
  );

  const { placeFromGrid, openTask, gridTasks, panelTasks, taskDialog } = useTaskPlacement({
    tasks,
    tasksReadAt: tasksQuery.isFetching ? undefined : tasksQuery.startedTimeStamp,
    visibleDays,
    gridRef: gridSectionRef,
    panelRef,
    onAddTracked: addForTask,
  });

  // A failed change is shown until dismissed or until a later change succeeds; a failed load until dismissed,
  // and again when a later load fails too.
  const loadFailure = eventsQuery.isError ? eventsQuery.startedTimeStamp : undefined;
  const [dismissedLoadFailure, setDismissedLoadFailure] = useState<number>();
  const shownError =
    bannerMessage ??
    (loadFailure !== undefined && loadFailure !== dismissedLoadFailure ? EVENT_ERRORS.load : null);
  const dismissError = () => {
    if (bannerMessage) setBannerMessage(null);
    else setDismissedLoadFailure(loadFailure);
  };

  // Focus was on the result's own controls: it goes back to the import that made it, not to the page's start.
  const dismissIcsOutcome = () => {
    setIcsOutcome(null);
    importInputRef.current?.focus();
  };

  const eventsById = useMemo(() => new Map(events.map((event) => [event._id, event])), [events]);

  const changeRange = useCallback((start: Date, end: Date) => {
    const next = rangeQueryFor(start, end);
    setRange((current) => (sameRange(current, next) ? current : next));
  }, []);

  const setShowTracked = (on: boolean) =>
    setSearchParams(
      (current) => {
        const params = new URLSearchParams(current);
        if (on) params.set('tracked', '1');
        else params.delete('tracked');
        return params;
      },
      { replace: true },
    );

  const showView = (next: CalendarView, day: string) => {
    setShownDay({ day });
    setSearchParams(
      (current) => {
        const params = new URLSearchParams(current);
        if (next === 'month') params.set('view', 'month');
        else params.delete('view');
        return params;
      },
      { replace: true },
    );
  };
  // The day a view switch keeps in sight: the day last gone to, or today, when shown; else the week's or month's first.
  const dayInSight = () =>
    range ? dayInSightOf(view, range, [shownDay.day, toLocalDateKey()]) : shownDay.day;

  const openCreate = (draft: EventDraft) => setModal({ mode: 'create', draft, key: Date.now() });
  const openEdit = (eventId: string) => {
    const event = eventsById.get(eventId);
    if (event?.readOnly) setReadOnlyEventId(eventId);
    else if (event) setModal({ mode: 'edit', eventId, draft: draftFromEvent(event), key: Date.now() });
  };

  // A late answer closes only the dialog it belongs to, never one opened since.
  const closeModal = (key: number) => setModal((current) => (current?.key === key ? null : current));

  const save = async (draft: EventDraft, scope?: SeriesScope): Promise<ApiError | void> => {
    if (!modal) return;
    const body = eventBodyFromDraft(draft);
    // The rule goes only where it says something: a new series, or an edit that changes it ('' stops repeating).
    const ruleChange = draft.rrule !== modal.draft.rrule ? { rrule: draft.rrule } : {};
    const result =
      modal.mode === 'create'
        ? await createEvent({ ...body, ...ruleChange })
        : await updateEvent({ id: modal.eventId, scope, ...body, ...ruleChange });
    if (result.error) {
      setBannerMessage(modal.mode === 'create' ? EVENT_ERRORS.create : EVENT_ERRORS.update);
      return result.error;
    }
    closeModal(modal.key);
    setBannerMessage(null);
    // A saved event is shown: the grid goes to its day when that is not in sight (a date typed into the dialog).
    const savedDay = dayOfDraftTime(draft.start);
    if (range && !visibleDays.includes(savedDay)) setShownDay({ day: savedDay });
  };

  /**
   * Deletes the event, or for an occurrence the occurrences chosen: 'this' skips it, 'following' ends the series
   * before it, 'all' deletes the series. One request each; Undo restores by the id deleted.
   */
  const remove = async (scope?: SeriesScope) => {
    if (modal?.mode !== 'edit') return;
    const event = eventsById.get(modal.eventId);
    try {
      const deleted = { id: modal.eventId, ...(event?.seriesId && scope ? { scope } : {}) };
      await deleteEvent(deleted).unwrap();
      closeModal(modal.key);
      setBannerMessage(null);
      toastUndoableDelete({
        message: `Event "${modal.draft.title}" deleted`,
        undo: () => restoreEvent(deleted.id),
        restoredMessage: 'Event restored',
      });
    } catch {
      setBannerMessage(EVENT_ERRORS.delete);
    }
  };

  // A block of a repeating event moved on the grid asks which occurrences move; Cancel (null) puts it back.
  const [moveScopeAnswer, setMoveScopeAnswer] = useState<((scope: SeriesScope | null) => void) | null>(null);
  const eventsByIdRef = useRef(eventsById);
  useEffect(() => {
    eventsByIdRef.current = eventsById;
  }, [eventsById]);

  const move = useCallback(
    async (timing: EventTiming) => {
      let scope: SeriesScope | undefined;
      if (eventsByIdRef.current.get(timing.id)?.seriesId) {
        const answer = await new Promise<SeriesScope | null>((resolve) => setMoveScopeAnswer(() => resolve));
        setMoveScopeAnswer(null);
        if (!answer) return false;
        scope = answer;
      }
      try {
        await moveEvent({ ...timing, ...(scope ? { scope } : {}) }).unwrap();
        setBannerMessage(null);
        return true;
      } catch {
        setBannerMessage(EVENT_ERRORS.update);
        return false;
      }
    },
    [moveEvent],
  );

  const readOnlyEvent = readOnlyEventId ? eventsById.get(readOnlyEventId) : undefined;
  const modalBusy = createState.isLoading || updateState.isLoading || deleteState.isLoading;
  const isFirstLoad = range === null || (eventsQuery.isFetching && eventsQuery.data === undefined);
  const tasksLoading = range === null || (tasksQuery.currentData === undefined && !tasksQuery.isError);
  // The grid's first blocks wait for the tasks too: events drawn before them would be laid out again beside them,
  // moving on screen (a layout shift). Only the first read: later ones keep the tasks read before.
  const holdBlocks = tasksQuery.data === undefined && !tasksQuery.isError;

  const lightBlocks = useMemo(
    () =>
      lightDay && !grids && !holdBlocks
        ? lightBlocksOf({ day: shownDay.day, events, tasks: gridTasks, categoryColors, calendarLooks })
        : NO_LIGHT_BLOCKS,
    [lightDay, grids, holdBlocks, shownDay.day, events, gridTasks, categoryColors, calendarLooks],
  );
  // FullCalendar replaces the light day behind the dialog about to open, so the block or slot used will be gone when it
  // closes: the dialog is opened from the grid's region, which stays, and focus goes back there.
  const handOverTheGrid = () => {
    gridSectionRef.current?.focus({ preventScroll: true });
    setGridUsed(true);
  };
  const shownLedgerDay = ledgerQuery.data?.find((ledgerDay) => ledgerDay.date === shownDay.day);
  const lightFrame: LightFrame | undefined = lightDay
    ? {
        blocks: lightBlocks,
        figure: shownLedgerDay ? dayFigureText(shownLedgerDay) : null,
        loading: isFirstLoad || holdBlocks,
        onShowDay: (day) => setShownDay({ day }),
        onOpenBlock: (block: LightBlock) => {
          handOverTheGrid();
          if (block.kind === 'task') openTask(block.itemId);
          else openEdit(block.itemId);
        },
        onTapSlot: (start) => {
          handOverTheGrid();
          openCreate(draftFromSelection(start, start, false));
        },
      }
    : undefined;

  return (
    <main className={styles.page} aria-labelledby="calendar-page-title">
      {/* No side nav here (SPEC): this bar is the way back and the theme switch. */}
      <nav className={styles.topBar} aria-label="Calendar">
        <Link to="/app/wallet" className={styles.backLink}>
          <span aria-hidden="true">←</span> Back to Wallet
        </Link>
        <ThemeToggle />
      </nav>
      {/* One row of the page's grid: the import result's live region, empty, adds no gap under the header. */}
      <div>
        <PageHeader
          titleId="calendar-page-title"
          title={TEXT.heading}
          subtitle={TEXT.subtitle}
          actions={
            <div className={styles.actions}>
              <Button onClick={() => openCreate(draftForDay(dayInSight()))}>Add Event</Button>
              <IcsControls onOutcome={setIcsOutcome} importInputRef={importInputRef} />
            </div>
          }
        />
        <ImportResult outcome={icsOutcome} onDismiss={dismissIcsOutcome} />
      </div>

      {shownError && !modal && (
        <Banner tone="error" onDismiss={dismissError}>
          {shownError}
        </Banner>
      )}

      <div className={styles.viewRow}>
        <div className={styles.viewControls}>
          <ViewControls
            view={view}
            onViewChange={(next) => showView(next, dayInSight())}
            onGoTo={(day) => setShownDay({ day })}
          />
        </div>
        {view === 'week' && (
          <Switch
            checked={showTracked}
            onChange={setShowTracked}
            label="Show tracked"
            className={styles.trackedSwitch}
          />
        )}
        <CalendarsDisclosure />
      </div>

      {view === 'month' ? (
        <section aria-label="Month" className={styles.gridSection}>
          {grids ? (
            <grids.MonthGrid
              events={events}
              calendarLooks={calendarLooks}
              tasks={gridTasks}
              categoryColors={categoryColors}
              ledgerDays={ledgerQuery.data ?? NO_LEDGER}
              ledgerVersion={ledgerVersion}
              shownDay={shownDay}
              loading={isFirstLoad}
              onRangeChange={changeRange}
              onOpenEvent={openEdit}
              onOpenTask={openTask}
              onOpenDay={(day) => showView('week', day)}
            />
          ) : (
            <GridFrame kind="month" day={shownDay.day} onRangeChange={changeRange} />
          )}
        </section>
      ) : (
        <>
          <AllDayEvents events={events} calendarLooks={calendarLooks} onOpenEvent={openEdit} />
          <div className={styles.workspace}>
            <section
              aria-label="Week time grid"
              ref={gridSectionRef}
              tabIndex={-1}
              className={styles.gridSection}
            >
              {grids ? (
                <grids.WeekGrid
                  loading={isFirstLoad || holdBlocks}
                  events={holdBlocks ? NO_EVENTS : events}
                  tasks={gridTasks}
                  categoryColors={categoryColors}
                  calendarLooks={calendarLooks}
                  ledgerDays={ledgerQuery.data ?? NO_LEDGER}
                  ledgerVersion={ledgerVersion}
                  onRangeChange={changeRange}
                  onSelectRange={(start, end, allDay) => openCreate(draftFromSelection(start, end, allDay))}
                  onOpenEvent={openEdit}
                  onOpenTask={openTask}
                  onMoveEvent={move}
                  onPlaceTask={placeFromGrid}
                  unscheduledPanelRef={panelRef}
                  shownDay={shownDay}
                  tracked={tracked}
                />
              ) : (
                <GridFrame
                  kind={narrow ? 'day' : 'week'}
                  day={shownDay.day}
                  onRangeChange={changeRange}
                  light={lightFrame}
                />
              )}
            </section>
            <UnscheduledPanel
              panelRef={panelRef}
              tasks={panelTasks}
              visibleDays={visibleDays}
              categoryColors={categoryColors}
              loading={tasksLoading}
              failed={tasksQuery.isError}
              onSchedule={openTask}
              draggableClass={grids?.Draggable ?? null}
            />
          </div>
        </>
      )}

      {modal && (
        <EventModal
          key={modal.key}
          mode={modal.mode}
          initialDraft={modal.draft}
          categories={categories}
          busy={modalBusy}
          error={bannerMessage}
          onSave={save}
          onDelete={remove}
          // Closing while a save runs would throw away the edits if it then fails.
          onClose={() => {
            if (!modalBusy) setModal(null);
          }}
        />
      )}

      {readOnlyEvent && (
        <ReadOnlyEventDialog
          key={readOnlyEvent._id}
          event={readOnlyEvent}
          calendar={calendarLooks.get(readOnlyEvent.calendarId)}
          ownCalendarName={ownCalendarName}
          onClose={() => setReadOnlyEventId(null)}
        />
      )}

      {moveScopeAnswer && (
        <SeriesScopeDialog
          action="move"
          item="event"
          busy={false}
          onChoose={moveScopeAnswer}
          onCancel={() => moveScopeAnswer(null)}
        />
      )}

      {taskDialog}
      {entryDialog}
    </main>
  );
}
