import { Type, type Static } from '@sinclair/typebox';
import { TITLE_MAX_LENGTH } from './product.js';
import type { TaskRow } from '../db/schema.js';
import { DateTime, HHMM, HHMM_RULE, LocalDate, RecordId } from './common.js';
import { DEFINITIONS } from './ledger.js';
import { RruleInput, SeriesFields, ownEndOf, seriesJsonOf } from './series.js';

/**
 * A nullable field of a response, as OpenAPI 3.0 says it (`nullable`), rather than an anyOf with null: the response
 * serializer writes it directly, where an anyOf makes it validate every value to pick a branch (a tenth of
 * GET /tasks/today's throughput with 20 tasks).
 */
const Nullable = <T>(schema: { type: 'string' | 'integer'; description: string }) =>
  Type.Unsafe<T | null>({ ...schema, nullable: true });

export const Task = Type.Object(
  {
    _id: Type.String(),
    title: Type.String(),
    categoryId: Type.String({ description: "The category's _id, or '' when uncategorised" }),
    startHHMM: Type.String({ description: "Local clock time HH:MM; '' for an unscheduled task" }),
    endHHMM: Type.String({ description: "Local clock time HH:MM; '' for an unscheduled task" }),
    notes: Type.String(),
    date: Type.String({ description: 'Local day (YYYY-MM-DD) in the time zone the task was planned in' }),
    start: Type.String({
      description: 'ISO UTC date-time; for an unscheduled task, the start of its day (= end)',
    }),
    end: Type.String({ description: 'ISO UTC date-time' }),
    done: Type.Boolean({ description: DEFINITIONS.done }),
    dismissed: Type.Boolean({ description: DEFINITIONS.dismissed }),
    scheduled: Type.Boolean({ description: DEFINITIONS.unscheduled }),
    estimateMinutes: Nullable<number>({
      type: 'integer',
      description: 'The planned length in minutes, or null. An unscheduled task always has one',
    }),
    trackedMinutes: Type.Integer({ description: DEFINITIONS.tracked }),
    timerStartedAt: Nullable<string>({
      type: 'string',
      description: "ISO instant the task's running timer started, or null. One timer runs per user",
    }),
    timerAutoStopped: Type.Boolean({
      description:
        'true when the timer ran 12 hours and stopped itself (12 h were tracked); false again after the next start or correction',
    }),
    isEvent: Type.Boolean(),
    isReminder: Type.Boolean(),
    carryover: Type.Boolean(),
    ...SeriesFields,
  },
  { $id: 'Task' },
);
export type Task = Static<typeof Task>;
export const TaskRef = Type.Unsafe<Task>({ $ref: 'Task#' });

/** The running timer of a user, as its row holds it: the task's `timerStartedAt` is read from it. */
export interface RunningTimer {
  timerTaskId: string | null;
  timerStartedAt: number | null;
}

export function toTaskJson(row: TaskRow, timer?: RunningTimer): Task {
  const running = timer?.timerTaskId === row.id && timer.timerStartedAt !== null;
  return {
    _id: row.id,
    title: row.title,
    categoryId: row.categoryId ?? '',
    startHHMM: row.startHhmm,
    endHHMM: row.endHhmm,
    notes: row.notes,
    date: row.date,
    start: new Date(row.startAt).toISOString(),
    end: new Date(ownEndOf(row)).toISOString(),
    done: row.done === 1,
    dismissed: row.dismissed === 1,
    scheduled: row.scheduled === 1,
    estimateMinutes: row.estimateMinutes,
    trackedMinutes: row.trackedMinutes,
    timerStartedAt: running ? new Date(timer.timerStartedAt!).toISOString() : null,
    timerAutoStopped: row.timerAutoStopped === 1,
    isEvent: row.isEvent === 1,
    isReminder: row.isReminder === 1,
    carryover: row.carryover === 1,
    ...seriesJsonOf(row),
  };
}

const Title = Type.String({ maxLength: TITLE_MAX_LENGTH });
const CategoryId = Type.Union([Type.String({ maxLength: 100 }), Type.Null()]);
const Notes = Type.String({ maxLength: 5000 });
const Estimate = Type.Integer({
  minimum: 1,
  maximum: 1440,
  errorMessage: 'must be a whole number of minutes from 1 to 1440',
});
const Tracked = Type.Integer({
  minimum: 0,
  maximum: 1440,
  errorMessage: 'must be a whole number of minutes from 0 to 1440',
});
const UNSCHEDULED_BY_ESTIMATE =
  'Leave startHHMM and endHHMM out and give estimateMinutes to plan an unscheduled task (no block on the grid yet)';

export const CreateTaskBody = Type.Object(
  {
    title: Title,
    categoryId: Type.Optional(CategoryId),
    startHHMM: Type.Optional(Type.String({ ...HHMM, description: UNSCHEDULED_BY_ESTIMATE })),
    endHHMM: Type.Optional(Type.String({ ...HHMM, description: UNSCHEDULED_BY_ESTIMATE })),
    estimateMinutes: Type.Optional(Type.Union([Estimate, Type.Null()])),
    notes: Type.Optional(Notes),
    date: Type.Optional(LocalDate),
    done: Type.Optional(Type.Boolean()),
    isEvent: Type.Optional(Type.Boolean()),
    isReminder: Type.Optional(Type.Boolean()),
    carryover: Type.Optional(Type.Boolean()),
    rrule: Type.Optional(RruleInput),
  },
  { additionalProperties: false },
);
export type CreateTaskBody = Static<typeof CreateTaskBody>;

const sentBack = (what: string) =>
  `Read only: accepted so the whole task can be sent back as read, and ignored (${what})`;
/** Fields of the Task JSON that an edit ignores, accepted so the whole task can be sent back as read. */
const SENT_BACK_READ_ONLY = {
  scheduled: Type.Optional(Type.Boolean({ description: sentBack('times schedule and unschedule') })),
  timerStartedAt: Type.Optional(
    Type.Union([Type.String({ maxLength: 40 }), Type.Null()], { description: sentBack('see timer/start') }),
  ),
  timerAutoStopped: Type.Optional(Type.Boolean({ description: sentBack('see timer/start') })),
  seriesId: Type.Optional(
    Type.String({ maxLength: 100, description: sentBack('an occurrence stays in its series') }),
  ),
  recurrenceId: Type.Optional(
    Type.String({ maxLength: 40, description: sentBack('an occurrence keeps its name') }),
  ),
};

/** The edit path's precedence, said on each field it concerns: the local wall-clock fields win over the instants. */
const WALL_CLOCK_WINS = (what: string) =>
  `${what}. When date, startHHMM or endHHMM is sent, start and end are computed from them (the missing ones taken from the task) in the request's time zone, and any start or end sent with them is ignored`;

export const UpdateTaskBody = Type.Object(
  {
    _id: Type.Optional(
      Type.String({
        maxLength: 100,
        description:
          "The task's own _id, accepted so the whole task can be sent back; any other id is refused",
      }),
    ),
    title: Type.Optional(Title),
    categoryId: Type.Optional(CategoryId),
    startHHMM: Type.Optional(
      Type.Union([Type.String(HHMM_RULE), Type.Literal(''), Type.Null()], {
        description: `${WALL_CLOCK_WINS('The start, as a local clock time')}. Giving times schedules the task; null (or '', as an unscheduled task reads) for both startHHMM and endHHMM unschedules it (its length becomes its estimate unless it has one)`,
      }),
    ),
    endHHMM: Type.Optional(
      Type.Union([Type.String(HHMM_RULE), Type.Literal(''), Type.Null()], {
        description: WALL_CLOCK_WINS('The end, as a local clock time (earlier than the start: the next day)'),
      }),
    ),
    notes: Type.Optional(Notes),
    date: Type.Optional(Type.String({ ...LocalDate, description: WALL_CLOCK_WINS('The local day') })),
    start: Type.Optional(
      Type.String({
        ...DateTime,
        description:
          'The start as an instant; read only when date, startHHMM and endHHMM are all absent (put back), and then date, startHHMM and endHHMM are derived from start and end',
      }),
    ),
    end: Type.Optional(
      Type.String({
        ...DateTime,
        description:
          'The end as an instant; read only when date, startHHMM and endHHMM are all absent, like start',
      }),
    ),
    done: Type.Optional(Type.Boolean()),
    dismissed: Type.Optional(
      Type.Boolean({
        description: `true dismisses the task, false brings it back. ${DEFINITIONS.dismissed}`,
      }),
    ),
    estimateMinutes: Type.Optional(Type.Union([Estimate, Type.Null()])),
    trackedMinutes: Type.Optional(
      Type.Integer({
        ...Tracked,
        description:
          "Corrects the tracked minutes by hand (0 to 1440), for clients that know tracked time as a number; the change is recorded as time entries (source 'manual'): more minutes add one entry of the difference at the first time from the task's start (its day's start when unscheduled) free of the person's other entries; fewer take the difference off the task's entries, the latest first, trimming the end of the last one kept. A running timer on the task stops first; a value equal to the current one changes nothing. Clients that know entries use /time-entries",
      }),
    ),
    ...SENT_BACK_READ_ONLY,
    isEvent: Type.Optional(Type.Boolean()),
    isReminder: Type.Optional(Type.Boolean()),
    carryover: Type.Optional(Type.Boolean()),
    rrule: Type.Optional(
      Type.Union([RruleInput, Type.Literal('')], {
        description:
          "The series' new rule (with scope 'all' or 'following'; the rule as read changes nothing); on a single task it makes the task repeat; '' makes an occurrence a single task",
      }),
    ),
  },
  { additionalProperties: false },
);
export type UpdateTaskBody = Static<typeof UpdateTaskBody>;

export const TaskListQuery = Type.Object(
  {
    date: LocalDate,
    done: Type.Optional(
      Type.Union([Type.Literal('true'), Type.Literal('false')], {
        errorMessage: "must be 'true' or 'false'",
      }),
    ),
    scheduled: Type.Optional(
      Type.Union([Type.Literal('true'), Type.Literal('false')], {
        errorMessage: "must be 'true' or 'false'",
        description: "'false' lists the day's unscheduled tasks instead of its scheduled ones (the default)",
      }),
    ),
  },
  { additionalProperties: false },
);

export const TaskList = Type.Object({ tasks: Type.Array(TaskRef) });

/** The most tasks one Put Back moves: a day's list, with room. */
export const PUT_BACK_MAX_TASKS = 200;

export const PutBackBody = Type.Object(
  {
    ids: Type.Array(RecordId, {
      minItems: 1,
      maxItems: PUT_BACK_MAX_TASKS,
      description: `The _id of each task or occurrence of a series to put back, 1 to ${PUT_BACK_MAX_TASKS} (Yesterday's pending tasks)`,
    }),
    date: Type.String({
      ...LocalDate,
      description: "The local day to put them on (today, in the request's time zone)",
    }),
  },
  { additionalProperties: false },
);
export type PutBackBody = Static<typeof PutBackBody>;

export const TodayTasks = Type.Object({
  date: Type.String(),
  spentHours: Type.Number({ description: `SPEC's name for plannedHours. ${DEFINITIONS.planned}` }),
  plannedHours: Type.Number({ description: DEFINITIONS.planned }),
  trackedHours: Type.Number({ description: DEFINITIONS.tracked }),
  unscheduledHours: Type.Number({ description: DEFINITIONS.unscheduled }),
  budgetHours: Type.Number({ description: DEFINITIONS.budget }),
  remainingHours: Type.Number({
    description: `The ledger's remainingMinutes / 60, one decimal. ${DEFINITIONS.over}`,
  }),
  overHours: Type.Number({ description: `The ledger's overMinutes / 60, one decimal. ${DEFINITIONS.over}` }),
  tasks: Type.Array(TaskRef, {
    description:
      "Today's scheduled tasks: those dated today and those whose block overlaps today in the request's time zone",
  }),
});
