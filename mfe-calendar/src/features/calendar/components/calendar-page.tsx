import { useCallback, useMemo, useRef, useState } from 'react';
import {
  skipToken,
  ThemeToggle,
  toastUndoableDelete,
  useGetCategoriesQuery,
  useGetLedgerQuery,
  useGetTasksInRangeQuery,
  type ApiError,
  type Category,
  type LedgerDay,
  type Task,
} from '@time-wallet/api';
import { Link } from '@time-wallet/api/router';
import { Banner, Button, PageHeader } from '@time-wallet/shared-ui';
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
} from '../api/events-api';
import {
  draftForNextHour,
  draftFromEvent,
  draftFromSelection,
  eventBodyFromDraft,
  rangeQueryFor,
  type EventDraft,
} from '../lib/event-dates';
import { categoryColorsOf, visibleDaysOf } from '../lib/task-blocks';
import { useTaskPlacement } from '../hooks/use-task-placement';
import { AllDayEvents } from './all-day-events';
import { EventModal } from './event-modal';
import { IcsControls } from './ics-controls';
import { UnscheduledPanel } from './unscheduled-panel';
import { WeekGrid } from './week-grid';
import styles from './calendar-page.module.css';

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

function sameRange(a: EventRange | null, b: EventRange): boolean {
  return a !== null && a.from === b.from && a.to === b.to;
}

/** The calendar route: a week time grid of the person's events, with its own way back to the app. */
export function CalendarPage() {
  const [range, setRange] = useState<EventRange | null>(null);
  const [modal, setModal] = useState<ModalState | null>(null);
  const [bannerMessage, setBannerMessage] = useState<string | null>(null);

  const eventsQuery = useGetEventsQuery(range ?? skipToken);
  const events = eventsQuery.data ?? NO_EVENTS;
  const [createEvent, createState] = useCreateEventMutation();
  const [updateEvent, updateState] = useUpdateEventMutation();
  const [deleteEvent, deleteState] = useDeleteEventMutation();
  const [restoreEvent] = useRestoreEventMutation();
  const [moveEvent] = useMoveEventMutation();

  const tasksQuery = useGetTasksInRangeQuery(range ?? skipToken);
  const tasks = tasksQuery.data ?? NO_TASKS;
  const ledgerQuery = useGetLedgerQuery(range ?? skipToken);
  // Each read of the ledger (or failure to read it) ends a dropped move's preview in the day headers.
  const ledgerVersion = ledgerQuery.isError
    ? `failed ${ledgerQuery.startedTimeStamp}`
    : ledgerQuery.fulfilledTimeStamp;
  const categories = useGetCategoriesQuery().data ?? NO_CATEGORIES;
  const categoryColors = useMemo(() => categoryColorsOf(categories), [categories]);
  const panelRef = useRef<HTMLElement>(null);
  const gridSectionRef = useRef<HTMLElement>(null);
  const visibleDays = useMemo(() => (range ? visibleDaysOf(range) : []), [range]);
  const tasksById = useMemo(() => new Map(tasks.map((task) => [task._id, task])), [tasks]);
  const { placeFromGrid, openTask, taskDialog } = useTaskPlacement({
    tasksById,
    visibleDays,
    gridRef: gridSectionRef,
    panelRef,
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

  const eventsById = useMemo(() => new Map(events.map((event) => [event._id, event])), [events]);

  const changeRange = useCallback((start: Date, end: Date) => {
    const next = rangeQueryFor(start, end);
    setRange((current) => (sameRange(current, next) ? current : next));
  }, []);

  const openCreate = (draft: EventDraft) => setModal({ mode: 'create', draft, key: Date.now() });
  const openEdit = (eventId: string) => {
    const event = eventsById.get(eventId);
    if (event) setModal({ mode: 'edit', eventId, draft: draftFromEvent(event), key: Date.now() });
  };

  // A late answer closes only the dialog it belongs to, never one opened since.
  const closeModal = (key: number) => setModal((current) => (current?.key === key ? null : current));

  const save = async (draft: EventDraft): Promise<ApiError | void> => {
    if (!modal) return;
    const body = eventBodyFromDraft(draft);
    const result =
      modal.mode === 'create' ? await createEvent(body) : await updateEvent({ id: modal.eventId, ...body });
    if (result.error) {
      setBannerMessage(modal.mode === 'create' ? EVENT_ERRORS.create : EVENT_ERRORS.update);
      return result.error;
    }
    closeModal(modal.key);
    setBannerMessage(null);
  };

  const remove = async () => {
    if (modal?.mode !== 'edit') return;
    try {
      const { eventId } = modal;
      await deleteEvent(eventId).unwrap();
      closeModal(modal.key);
      setBannerMessage(null);
      toastUndoableDelete({
        message: `Event "${modal.draft.title}" deleted`,
        undo: () => restoreEvent(eventId),
        restoredMessage: 'Event restored',
      });
    } catch {
      setBannerMessage(EVENT_ERRORS.delete);
    }
  };

  const move = useCallback(
    async (timing: EventTiming) => {
      try {
        await moveEvent(timing).unwrap();
        setBannerMessage(null);
        return true;
      } catch {
        setBannerMessage(EVENT_ERRORS.update);
        return false;
      }
    },
    [moveEvent],
  );

  const modalBusy = createState.isLoading || updateState.isLoading || deleteState.isLoading;
  const isFirstLoad = range === null || (eventsQuery.isFetching && eventsQuery.data === undefined);
  const tasksLoading = range === null || (tasksQuery.currentData === undefined && !tasksQuery.isError);

  return (
    <main className={styles.page} aria-labelledby="calendar-page-title">
      {/* No side nav here (SPEC): this bar is the way back and the theme switch. */}
      <nav className={styles.topBar} aria-label="Calendar">
        <Link to="/app/wallet" className={styles.backLink}>
          <span aria-hidden="true">←</span> Back to Wallet
        </Link>
        <ThemeToggle />
      </nav>
      <PageHeader
        titleId="calendar-page-title"
        title="Calendar"
        subtitle="Select a time range to add an event; drag or resize an event to move it."
        actions={
          <div className={styles.actions}>
            <Button onClick={() => openCreate(draftForNextHour())}>Add Event</Button>
            <IcsControls />
          </div>
        }
      />

      {shownError && !modal && (
        <Banner tone="error" onDismiss={dismissError}>
          {shownError}
        </Banner>
      )}

      <AllDayEvents events={events} onOpenEvent={openEdit} />

      <div className={styles.workspace}>
        <section
          aria-label="Week time grid"
          ref={gridSectionRef}
          tabIndex={-1}
          className={styles.gridSection}
        >
          <WeekGrid
            loading={isFirstLoad}
            events={events}
            tasks={tasks}
            categoryColors={categoryColors}
            ledgerDays={ledgerQuery.data ?? NO_LEDGER}
            ledgerVersion={ledgerVersion}
            onRangeChange={changeRange}
            onSelectRange={(start, end, allDay) => openCreate(draftFromSelection(start, end, allDay))}
            onOpenEvent={openEdit}
            onOpenTask={openTask}
            onMoveEvent={move}
            onPlaceTask={placeFromGrid}
            unscheduledPanelRef={panelRef}
          />
        </section>
        <UnscheduledPanel
          panelRef={panelRef}
          tasks={tasks}
          visibleDays={visibleDays}
          categoryColors={categoryColors}
          loading={tasksLoading}
          failed={tasksQuery.isError}
          onSchedule={openTask}
        />
      </div>

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

      {taskDialog}
    </main>
  );
}
