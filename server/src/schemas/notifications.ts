import { Type, type Static } from '@sinclair/typebox';
import type { NotificationSettingsRow } from '../db/schema.js';
import { HHMM_RULE } from './common.js';

/** The latest an event reminder may come before the event: a day. */
export const EVENT_REMINDER_MAX_MINUTES = 1440;

const EventReminderMinutes = Type.Union(
  [
    Type.Integer({
      minimum: 0,
      maximum: EVENT_REMINDER_MAX_MINUTES,
      errorMessage: `must be a whole number of minutes from 0 to ${EVENT_REMINDER_MAX_MINUTES}, or null (off)`,
    }),
    Type.Null(),
  ],
  {
    description: `Minutes before an event's start its reminder comes (0 to ${EVENT_REMINDER_MAX_MINUTES}); null: no event reminders`,
    errorMessage: `must be a whole number of minutes from 0 to ${EVENT_REMINDER_MAX_MINUTES}, or null (off)`,
  },
);
const TaskStart = Type.Boolean({
  description: "A reminder when a task's start comes",
  errorMessage: 'must be true or false',
});
const TimerAlerts = Type.Boolean({
  description: "Alerts when a running timer passes its block's end, and when it stops itself after 12 hours",
  errorMessage: 'must be true or false',
});
const PlanDayAt = Type.Union([Type.String(HHMM_RULE), Type.Null()], {
  description: "A daily 'plan your day' nudge at this HH:MM in the person's time zone; null: none",
  errorMessage: 'must be a time in HH:MM format (00:00 to 23:59), or null (off)',
});

export const NotificationSettings = Type.Object(
  {
    eventReminderMinutes: EventReminderMinutes,
    taskStart: TaskStart,
    timerAlerts: TimerAlerts,
    planDayAt: PlanDayAt,
  },
  { additionalProperties: false },
);
export type NotificationSettings = Static<typeof NotificationSettings>;

/** Any subset of the settings; unknown fields are refused. */
export const UpdateNotificationSettingsBody = Type.Partial(NotificationSettings, {
  additionalProperties: false,
});
export type UpdateNotificationSettingsBody = Static<typeof UpdateNotificationSettingsBody>;

/** A person without a settings row has these. */
export const DEFAULT_NOTIFICATION_SETTINGS: Readonly<NotificationSettings> = Object.freeze({
  eventReminderMinutes: 10,
  taskStart: true,
  timerAlerts: true,
  planDayAt: null,
});

export function toNotificationSettingsJson(row: NotificationSettingsRow | undefined): NotificationSettings {
  if (!row) return { ...DEFAULT_NOTIFICATION_SETTINGS };
  return {
    eventReminderMinutes: row.eventReminderMinutes === null ? null : Number(row.eventReminderMinutes),
    taskStart: Number(row.taskStart) === 1,
    timerAlerts: Number(row.timerAlerts) === 1,
    planDayAt: row.planDayAt,
  };
}
