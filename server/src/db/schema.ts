import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/** Instants are epoch milliseconds; flags are 0/1 so both SQLite and PostgreSQL store them alike. */
export interface UsersTable {
  id: string;
  username: string;
  usernameKey: string;
  email: string;
  emailKey: string;
  passwordHash: string;
  name: string;
  profilePicture: string;
  budgetHours: number;
  timeZone: string;
  /** Seven budgets, Sunday first, as JSON; null when every day has `budgetHours`. */
  budgetHoursByWeekday: Generated<string | null>;
  /** The user's one running timer: its task and start instant, both null when none runs. */
  timerTaskId: Generated<string | null>;
  timerStartedAt: Generated<number | null>;
  createdAt: number;
  updatedAt: number;
}

export interface SessionsTable {
  id: string;
  userId: string;
  createdAt: number;
  expiresAt: number;
  /** The last request made with the session, written at most once a minute; idle sessions end. */
  lastSeenAt: number;
  /** The User-Agent it signed in with, cut to 200 characters, so people can tell their devices apart. */
  userAgent: string;
}

export interface PasswordResetsTable {
  tokenHash: string;
  userId: string;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
}

/** Password attempts of one account from one source inside the window that started at the first of them. */
export interface SignInThrottleTable {
  accountKey: string;
  source: string;
  attempts: number;
  windowStartedAt: number;
}

export interface RateLimitHitsTable {
  key: string;
  windowStart: number;
  hits: number;
}

export interface CategoriesTable {
  id: string;
  userId: string;
  name: string;
  color: string;
  createdAt: number;
  updatedAt: number;
}

/** Tasks and events may repeat (migration 0009, services/series.ts). */
export interface SeriesColumns {
  /** A series' master (see migration 0009): its rule, skipped starts (JSON), zone and occurrence length. */
  rrule: Generated<string | null>;
  exdates: Generated<string | null>;
  seriesZone: Generated<string | null>;
  /** Set on a series' master only: the length of each occurrence. */
  occurrenceMs: Generated<number | null>;
  /** An override: the series it belongs to and the occurrence start it replaces. */
  seriesId: Generated<string | null>;
  recurrenceAt: Generated<number | null>;
}

export interface TasksTable extends SeriesColumns {
  id: string;
  userId: string;
  title: string;
  categoryId: string | null;
  startHhmm: string;
  endHhmm: string;
  notes: string;
  date: string;
  startAt: number;
  endAt: number;
  done: number;
  /** 1 when the task was dismissed: off the pending list and out of every figure (see services/ledger.ts). */
  dismissed: Generated<number>;
  /** 0 for a task with no times yet (planned with an estimate); its startAt = endAt = the start of its day. */
  scheduled: Generated<number>;
  estimateMinutes: Generated<number | null>;
  /** Minutes recorded by the timer plus manual corrections, 0..1440. */
  trackedMinutes: Generated<number>;
  /** 1 when the task's timer ran 12 hours and stopped itself; cleared by the next start or correction. */
  timerAutoStopped: Generated<number>;
  isEvent: number;
  isReminder: number;
  carryover: number;
  createdAt: number;
  updatedAt: number;
}

export interface EventsTable extends SeriesColumns {
  id: string;
  userId: string;
  title: string;
  startAt: number;
  endAt: number;
  allDay: number;
  categoryId: Generated<string | null>;
  source: 'manual' | 'ics';
  /** UID plus recurrence id of an imported occurrence; unique within its calendar (imports skip what is there). */
  icsKey: string | null;
  /** The calendar holding it: the owner's own calendar (whose id is the owner's id) or a subscription. */
  calendarId: string;
  createdAt: number;
  updatedAt: number;
}

/** A person's own calendar (id = the person's id) or a subscription to a calendar at a URL (migration 0013). */
export interface CalendarsTable {
  id: string;
  userId: string;
  kind: 'own' | 'subscription';
  name: string;
  color: string;
  /** 1 when its timed events spend the wallet; the own calendar always counts. */
  countsInBudget: number;
  url: string | null;
  etag: string | null;
  lastModified: string | null;
  lastRefreshedAt: number | null;
  lastError: string | null;
  /** When the background refresh is next due; null for the own calendar. */
  nextRefreshAt: number | null;
  /** The own calendar's private feed: the nonce its token is derived from, and the token's SHA-256 (hex). */
  feedNonce: string | null;
  feedTokenHash: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface AnalyticsSnapshotsTable {
  userId: string;
  weekStart: string;
  payload: string;
  updatedAt: number;
}

/** A deleted task, event or category, kept whole for a while so the delete can be undone (see the trash repository). */
export interface DeletedRecordsTable {
  userId: string;
  kind: 'tasks' | 'events' | 'categories' | 'calendars' | 'timeEntries';
  recordId: string;
  /** The row as it was, JSON. */
  record: string;
  deletedAt: number;
}

/**
 * Tracked time: an interval of a task's, recorded by its timer or by hand. One person's entries never overlap; a
 * running timer is the one entry without an end. Entries stay on the moment they were recorded, whatever later
 * happens to the task's plan.
 */
export interface TimeEntriesTable {
  id: string;
  userId: string;
  taskId: string;
  startAt: number;
  /** null while the task's timer runs. */
  endAt: number | null;
  source: 'timer' | 'manual';
  createdAt: number;
  updatedAt: number;
}

/**
 * The budget in force from a local day on: a change writes the new values from the day it is made, so the days
 * before keep theirs. No row: the user's current budget holds for every day.
 */
export interface BudgetPeriodsTable {
  userId: string;
  fromDate: string;
  budgetHours: number;
  budgetHoursByWeekday: string | null;
}

/** A person's reminder settings (migration 0015); no row: the defaults (schemas/notifications.ts). Flags are 0/1. */
export interface NotificationSettingsTable {
  userId: string;
  /** Minutes before an event's start; null: event reminders off. */
  eventReminderMinutes: number | null;
  taskStart: number;
  timerAlerts: number;
  /** 'HH:MM' in the person's time zone, or null (off). */
  planDayAt: string | null;
  updatedAt: number;
}

/** A browser subscribed to pushes (migration 0015): its push service endpoint and the keys its pushes are sealed to. */
export interface PushSubscriptionsTable {
  id: string;
  userId: string;
  /** Unique: one browser, whichever account subscribed it last. */
  endpoint: string;
  /** The browser's P-256 public key (65 bytes) and auth secret (16 bytes), base64url. */
  p256dh: string;
  auth: string;
  device: string;
  expirationTime: number | null;
  createdAt: number;
  updatedAt: number;
}

/**
 * One reminder for one browser (migration 0016, services/reminders.ts): inserted by the scans of every instance and
 * kept once by its unique (reminderKey, subscriptionId); a delivery claims it with a lease and marks it sent.
 */
export interface ReminderDeliveriesTable {
  id: string;
  userId: string;
  subscriptionId: string;
  reminderKey: string;
  kind: string;
  dueAt: number;
  state: 'due' | 'sent' | 'dropped' | 'cancelled' | 'gone' | 'failed';
  /** While a delivery is under way: when it is taken for dead and the row may be claimed again. */
  leaseUntil: number | null;
  attempts: Generated<number>;
  createdAt: number;
  updatedAt: number;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  passwordResets: PasswordResetsTable;
  signInThrottle: SignInThrottleTable;
  rateLimitHits: RateLimitHitsTable;
  categories: CategoriesTable;
  tasks: TasksTable;
  events: EventsTable;
  calendars: CalendarsTable;
  analyticsSnapshots: AnalyticsSnapshotsTable;
  deletedRecords: DeletedRecordsTable;
  timeEntries: TimeEntriesTable;
  budgetPeriods: BudgetPeriodsTable;
  notificationSettings: NotificationSettingsTable;
  pushSubscriptions: PushSubscriptionsTable;
  reminderDeliveries: ReminderDeliveriesTable;
}

export type UserRow = Selectable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type NewUserRow = Insertable<UsersTable>;
export type CategoryRow = Selectable<CategoriesTable>;
export type TaskRow = Selectable<TasksTable>;
export type TaskUpdate = Updateable<TasksTable>;
export type EventRow = Selectable<EventsTable>;
export type CalendarRow = Selectable<CalendarsTable>;
export type TimeEntryRow = Selectable<TimeEntriesTable>;
export type BudgetPeriodRow = Selectable<BudgetPeriodsTable>;
export type NotificationSettingsRow = Selectable<NotificationSettingsTable>;
export type PushSubscriptionRow = Selectable<PushSubscriptionsTable>;
