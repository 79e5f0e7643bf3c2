import { Type, type Static } from '@sinclair/typebox';
import { TITLE_MAX_LENGTH } from './product.js';
import type { TaskRow } from '../db/schema.js';
import { DateTime, HHMM, LocalDate } from './common.js';

const DISMISSED =
  "A dismissed task (Yesterday's Delete) has left the pending list and counts in no figure: not in spentHours, not in analytics. It is not deleted, and done is a separate flag.";

export const Task = Type.Object(
  {
    _id: Type.String(),
    title: Type.String(),
    categoryId: Type.String({ description: "The category's _id, or '' when uncategorised" }),
    startHHMM: Type.String(),
    endHHMM: Type.String(),
    notes: Type.String(),
    date: Type.String({ description: 'Local day (YYYY-MM-DD) in the time zone the task was planned in' }),
    start: Type.String({ description: 'ISO UTC date-time' }),
    end: Type.String({ description: 'ISO UTC date-time' }),
    done: Type.Boolean(),
    dismissed: Type.Boolean({ description: DISMISSED }),
    isEvent: Type.Boolean(),
    isReminder: Type.Boolean(),
    carryover: Type.Boolean(),
  },
  { $id: 'Task' },
);
export type Task = Static<typeof Task>;
export const TaskRef = Type.Unsafe<Task>({ $ref: 'Task#' });

export function toTaskJson(row: TaskRow): Task {
  return {
    _id: row.id,
    title: row.title,
    categoryId: row.categoryId ?? '',
    startHHMM: row.startHhmm,
    endHHMM: row.endHhmm,
    notes: row.notes,
    date: row.date,
    start: new Date(row.startAt).toISOString(),
    end: new Date(row.endAt).toISOString(),
    done: row.done === 1,
    dismissed: row.dismissed === 1,
    isEvent: row.isEvent === 1,
    isReminder: row.isReminder === 1,
    carryover: row.carryover === 1,
  };
}

const Title = Type.String({ maxLength: TITLE_MAX_LENGTH });
const CategoryId = Type.Union([Type.String({ maxLength: 100 }), Type.Null()]);
const Notes = Type.String({ maxLength: 5000 });

export const CreateTaskBody = Type.Object(
  {
    title: Title,
    categoryId: Type.Optional(CategoryId),
    startHHMM: HHMM,
    endHHMM: HHMM,
    notes: Type.Optional(Notes),
    date: Type.Optional(LocalDate),
    done: Type.Optional(Type.Boolean()),
    isEvent: Type.Optional(Type.Boolean()),
    isReminder: Type.Optional(Type.Boolean()),
    carryover: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type CreateTaskBody = Static<typeof CreateTaskBody>;

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
      Type.String({ ...HHMM, description: WALL_CLOCK_WINS('The start, as a local clock time') }),
    ),
    endHHMM: Type.Optional(
      Type.String({
        ...HHMM,
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
      Type.Boolean({ description: `true dismisses the task, false brings it back. ${DISMISSED}` }),
    ),
    isEvent: Type.Optional(Type.Boolean()),
    isReminder: Type.Optional(Type.Boolean()),
    carryover: Type.Optional(Type.Boolean()),
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
  },
  { additionalProperties: false },
);

export const TaskList = Type.Object({ tasks: Type.Array(TaskRef) });

export const TodayTasks = Type.Object({
  date: Type.String(),
  spentHours: Type.Number(),
  budgetHours: Type.Number(),
  remainingHours: Type.Number(),
  tasks: Type.Array(TaskRef),
});
