import type {
  Calendar,
  CalendarEvent,
  Category,
  LedgerDay,
  Task,
  TimeEntry,
  User,
  WeeklyAnalytics,
} from '../contract';
import { signedIn } from '../session-slice';
import { createAppStore, type AppStore } from '../store';
import { DEFAULT_BUDGET_HOURS, DEFAULT_CATEGORY_COLOR } from '../generated/product-defaults';

// Bodies as the server sends them, typed by the generated contract: a field the server renames or adds fails the
// tests' typecheck here, once, instead of in every hand-written mock.

export const TEST_USER: User = {
  id: 'user-1',
  _id: 'user-1',
  email: 'ada@example.com',
  username: 'adalovelace',
  name: 'Ada Lovelace',
  profilePicture: '',
  budgetHours: DEFAULT_BUDGET_HOURS,
  budgetHoursByWeekday: null,
  timeZone: 'UTC',
};

export function aCategory(overrides: Partial<Category> = {}): Category {
  return { _id: 'cat-1', name: 'Work', color: DEFAULT_CATEGORY_COLOR, ...overrides };
}

/** A task of 2026-03-08, 09:00-10:00 UTC, unless the overrides say otherwise. */
export function aTask(overrides: Partial<Task> = {}): Task {
  return {
    _id: 'task-1',
    title: 'Write report',
    categoryId: '',
    startHHMM: '09:00',
    endHHMM: '10:00',
    notes: '',
    date: '2026-03-08',
    start: '2026-03-08T09:00:00.000Z',
    end: '2026-03-08T10:00:00.000Z',
    done: false,
    dismissed: false,
    scheduled: true,
    estimateMinutes: null,
    trackedMinutes: 0,
    timerStartedAt: null,
    timerAutoStopped: false,
    isEvent: false,
    isReminder: false,
    carryover: false,
    seriesId: '',
    rrule: '',
    recurrenceId: '',
    ...overrides,
  };
}

/** The own calendar's id: the server names it after its person (TEST_USER). */
export const OWN_CALENDAR_ID = TEST_USER.id;

/** The person's own calendar as GET /calendars lists it, unless the overrides say otherwise. */
export function anOwnCalendar(overrides: Partial<Calendar> = {}): Calendar {
  return {
    id: OWN_CALENDAR_ID,
    name: 'My calendar',
    kind: 'own',
    color: '#2563eb',
    countsInBudget: true,
    eventCount: 0,
    ...overrides,
  };
}

/** A subscription to a holidays feed, refreshed 2026-03-08 08:00 UTC, unless the overrides say otherwise. */
export function aSubscription(overrides: Partial<Calendar> = {}): Calendar {
  return {
    id: 'calendar-sub-1',
    name: 'Holidays',
    kind: 'subscription',
    color: '#d97706',
    countsInBudget: true,
    url: 'https://calendars.example.com/holidays.ics',
    lastRefreshedAt: '2026-03-08T08:00:00.000Z',
    eventCount: 12,
    ...overrides,
  };
}

/** An event of 2026-03-08, 14:00-15:00 UTC, unless the overrides say otherwise. */
export function anEvent(overrides: Partial<CalendarEvent> = {}): CalendarEvent {
  return {
    _id: 'event-1',
    title: 'Dentist',
    start: '2026-03-08T14:00:00.000Z',
    end: '2026-03-08T15:00:00.000Z',
    allDay: false,
    categoryId: '',
    source: 'manual',
    calendarId: OWN_CALENDAR_ID,
    readOnly: false,
    seriesId: '',
    rrule: '',
    recurrenceId: '',
    ...overrides,
  };
}

/** A week of analytics starting Sunday 2026-03-08 with nothing recorded, unless the overrides say otherwise. */
export function aWeek(overrides: Partial<WeeklyAnalytics> = {}): WeeklyAnalytics {
  return {
    weekStart: '2026-03-08',
    weekEnd: '2026-03-14',
    totalMinutes: 0,
    byCategory: [],
    averageProductiveHours: 0,
    streak: 0,
    daily: Array.from({ length: 7 }, (_, day) => ({
      date: `2026-03-${String(8 + day).padStart(2, '0')}`,
      minutes: 0,
      productiveMinutes: 0,
      plannedMinutes: 0,
      trackedMinutes: 0,
      budgetMinutes: DEFAULT_BUDGET_HOURS * 60,
      overMinutes: 0,
      remainingMinutes: DEFAULT_BUDGET_HOURS * 60,
    })),
    ...overrides,
  };
}

/** An unscheduled task (an estimate, no times) of 2026-03-08, unless the overrides say otherwise. */
export function anUnscheduledTask(overrides: Partial<Task> = {}): Task {
  return aTask({
    _id: 'task-u1',
    title: 'Read chapter',
    startHHMM: '',
    endHHMM: '',
    start: '2026-03-08T00:00:00.000Z',
    end: '2026-03-08T00:00:00.000Z',
    scheduled: false,
    estimateMinutes: 45,
    ...overrides,
  });
}

/** The ledger of 2026-03-08 with nothing planned or tracked, unless the overrides say otherwise. */
export function aLedgerDay(overrides: Partial<LedgerDay> = {}): LedgerDay {
  const plannedMinutes = overrides.plannedMinutes ?? 0;
  const budgetMinutes = overrides.budgetMinutes ?? DEFAULT_BUDGET_HOURS * 60;
  // Over and remaining follow planned and budget, as the server computes them, unless the overrides say otherwise.
  return {
    date: '2026-03-08',
    plannedMinutes,
    trackedMinutes: 0,
    unscheduledMinutes: 0,
    productiveMinutes: 0,
    budgetMinutes,
    overMinutes: Math.max(0, plannedMinutes - budgetMinutes),
    remainingMinutes: Math.max(0, budgetMinutes - plannedMinutes),
    ...overrides,
  };
}

/** 40 minutes tracked by the timer on task-1, 09:00-09:40 UTC of 2026-03-08, unless the overrides say otherwise. */
export function aTimeEntry(overrides: Partial<TimeEntry> = {}): TimeEntry {
  return {
    id: 'entry-1',
    taskId: 'task-1',
    start: '2026-03-08T09:00:00.000Z',
    end: '2026-03-08T09:40:00.000Z',
    source: 'timer',
    ...overrides,
  };
}
/** The product's own store with someone signed in (TEST_USER unless told), as after a login. */
export function signedInStore(user: User = TEST_USER, token = 'token-abc'): AppStore {
  const store = createAppStore();
  store.dispatch(signedIn({ token, user }));
  return store;
}
