import { WeeklyAnalytics } from './analytics.js';
import { Calendar } from './calendar.js';
import { Category } from './category.js';
import { ErrorResponse } from './common.js';
import { CalendarEvent } from './event.js';
import { LedgerDay } from './ledger.js';
import { Task } from './task.js';
import { TimeEntry } from './time-entry.js';
import { User } from './user.js';

/** Registered once with addSchema so routes refer to them by $id and OpenAPI lists them as components. */
export const schemasForSharing = [
  ErrorResponse,
  User,
  Category,
  Task,
  CalendarEvent,
  Calendar,
  WeeklyAnalytics,
  LedgerDay,
  TimeEntry,
];
