import { useId, useState } from 'react';
import {
  REPEAT_COUNT_MAX,
  REPEAT_INTERVAL_MAX,
  WEEKDAY_NAMES,
  choiceOf,
  defaultUntilDate,
  describeRule,
  isInLastWeekOfMonth,
  presetChoice,
  repeatProblems,
  ruleOf,
  weekdayList,
  weekdayOf,
  type RepeatChoice,
  type RepeatControl,
  type RepeatEnds,
  type RepeatKind,
  type RepeatUnit,
} from '../../lib/repeat';
import { WEEKDAYS, type Weekday } from '../../lib/rrule';
import { Field } from '../field/field';
import { Fieldset } from '../fieldset/fieldset';
import { VisuallyHidden } from '../visually-hidden/visually-hidden';
import styles from './repeat-field.module.css';

export interface RepeatFieldProps {
  /** The RRULE value without "RRULE:"; '' when the item does not repeat. */
  value: string;
  /** Called with the rule for what the field shows, finished or not: check it with ruleProblems() before saving. */
  onChange: (rule: string) => void;
  /** The series' start: the options are worded from it ('Monthly on the fourth Monday') and rules read against it. */
  start: Date;
  /** All-day series end on a DATE, timed ones at the end of the local day in UTC. */
  allDay: boolean;
  /** The Repeat select's id, and the start of every other control's id. */
  idPrefix?: string;
  /** Submits the rule under this name in a native form (a hidden input), and names the Ends radio group. */
  name?: string;
  /** A message about the rule from the form or the server, shown under the Repeat select. */
  error?: string | null;
}

type RepeatOption =
  Exclude<RepeatKind, 'monthly-weekday'> | 'monthly-nth-weekday' | 'monthly-last-weekday' | 'unreadable';

/** What the rule alone cannot hold: the option picked and the text of the inputs as typed. */
interface EditingState {
  /** The rule this state belongs to; a value that differs came from outside, and the state is made anew. */
  rule: string;
  /** The option picked where two make the same rule ('Custom...' every 1 week on Monday is 'Weekly on Monday'). */
  option: RepeatOption | null;
  intervalText: string;
  countText: string;
  /** The "Ends on" date while another end is picked; null offers the default for the start. */
  untilText: string | null;
}

const DEFAULT_COUNT = 10;
const UNIT_NAMES: readonly RepeatUnit[] = ['day', 'week', 'month', 'year'];

function editingStateFor(rule: string, start: Date): EditingState {
  const choice = choiceOf(rule, start);
  return {
    rule,
    option: null,
    intervalText: String(choice?.kind === 'custom' ? choice.interval : 1),
    countText: String(choice?.ends.kind === 'after' ? choice.ends.count : DEFAULT_COUNT),
    untilText: choice?.ends.kind === 'on' ? choice.ends.date : null,
  };
}

const isValidDate = (date: Date): boolean => !Number.isNaN(date.getTime());

/** A whole number as typed, or 0 (which the rule's checks refuse) for anything else. */
function wholeNumberTyped(text: string): number {
  return /^\d{1,6}$/.test(text.trim()) ? Number(text.trim()) : 0;
}

/** The same rule as 'Custom...' shows it: every 1 day, week, month or year. */
function asCustom(choice: RepeatChoice, start: Date): RepeatChoice {
  const custom = { ...presetChoice('custom', start), ends: choice.ends };
  switch (choice.kind) {
    case 'custom':
      return choice;
    case 'daily':
      return { ...custom, unit: 'day' };
    case 'weekdays':
    case 'weekly':
      return { ...custom, weekdays: choice.weekdays };
    case 'monthly-date':
    case 'monthly-weekday':
      return { ...custom, unit: 'month' };
    case 'yearly':
      return { ...custom, unit: 'year' };
    default:
      return custom;
  }
}

/** The choice as the picked option shows it, where that option makes the same rule as the one it was read as. */
function shownAs(choice: RepeatChoice, option: RepeatOption | null, start: Date): RepeatChoice {
  if (option === 'custom') return asCustom(choice, start);
  if (option === 'weekly' && choice.kind === 'weekdays') return { ...choice, kind: 'weekly' };
  return choice;
}

function optionOf(choice: RepeatChoice): RepeatOption {
  if (choice.kind !== 'monthly-weekday') return choice.kind;
  return choice.fromMonthEnd ? 'monthly-last-weekday' : 'monthly-nth-weekday';
}

/**
 * The "Repeat" control of the event and task forms: a select of the usual patterns worded from the start, the days
 * of a weekly rule, "Every N units" for a custom one, and how the series ends. Controlled by an RRULE value; a rule
 * it cannot edit is described and kept until the user picks another option.
 */
export function RepeatField({
  value,
  onChange,
  start: startGiven,
  allDay,
  idPrefix,
  name,
  error,
}: RepeatFieldProps) {
  const generatedId = useId();
  const id = idPrefix ?? generatedId;
  // While the form's start is being retyped (an empty date), the options keep the wording of the last valid one.
  const [lastValidStart, setLastValidStart] = useState(() =>
    isValidDate(startGiven) ? startGiven : new Date(),
  );
  if (isValidDate(startGiven) && startGiven.getTime() !== lastValidStart.getTime())
    setLastValidStart(startGiven);
  const start = isValidDate(startGiven) ? startGiven : lastValidStart;
  const [editing, setEditing] = useState(() => editingStateFor(value, start));
  let current = editing;
  if (editing.rule !== value) {
    current = editingStateFor(value, start);
    setEditing(current);
  }

  const parsed = choiceOf(value, start);
  const shown = parsed && shownAs(parsed, current.option, start);
  const selected: RepeatOption = shown ? optionOf(shown) : 'unreadable';
  const problems = new Map<RepeatControl, string>(
    (shown ? repeatProblems(shown, start) : []).map((problem) => [problem.field, problem.message]),
  );
  const untilDate = current.untilText ?? defaultUntilDate(start);

  const commit = (choice: RepeatChoice, changes: Partial<EditingState> = {}) => {
    const rule = ruleOf(choice, start, allDay);
    // The option on show stays, even where the new rule reads as another ('Weekly' on Monday to Friday).
    setEditing({ ...current, option: selected, ...changes, rule });
    onChange(rule);
  };
  const wordsOf = (choice: RepeatChoice) => describeRule(ruleOf(choice, start, allDay), start);

  const pickOption = (option: RepeatOption) => {
    if (option === 'unreadable') return;
    const ends = shown?.ends ?? { kind: 'never' };
    if (option === 'custom') {
      const custom = asCustom(shown ?? presetChoice('none', start), start);
      commit(custom, { option, intervalText: String(custom.interval) });
      return;
    }
    const kind =
      option === 'monthly-nth-weekday' || option === 'monthly-last-weekday' ? 'monthly-weekday' : option;
    const choice = { ...presetChoice(kind, start), fromMonthEnd: option === 'monthly-last-weekday' };
    commit(kind === 'none' ? choice : { ...choice, ends }, { option });
  };

  const toggleWeekday = (choice: RepeatChoice, day: Weekday) => {
    const weekdays = choice.weekdays.includes(day)
      ? choice.weekdays.filter((picked) => picked !== day)
      : [...choice.weekdays, day];
    commit({ ...choice, weekdays });
  };

  const pickEnd = (choice: RepeatChoice, kind: RepeatEnds['kind']) => {
    const ends: RepeatEnds =
      kind === 'on'
        ? { kind, date: untilDate }
        : kind === 'after'
          ? { kind, count: wholeNumberTyped(current.countText) }
          : { kind };
    commit({ ...choice, ends }, { untilText: untilDate });
  };

  const weeklyLabel = (weekdays: readonly Weekday[]) =>
    weekdays.length > 0 ? `Weekly on ${weekdayList(weekdays)}` : 'Weekly';
  const monthlyWeekday = (fromMonthEnd: boolean) =>
    wordsOf({ ...presetChoice('monthly-weekday', start), fromMonthEnd });
  const options: [RepeatOption, string][] = [
    ['none', 'Does not repeat'],
    ['daily', wordsOf(presetChoice('daily', start))],
    ['weekdays', 'Every weekday (Monday to Friday)'],
    // Once picked, the weekly option names the days picked below it (Monday to Friday too, which stay weekly).
    ['weekly', weeklyLabel(shown?.kind === 'weekly' ? shown.weekdays : [weekdayOf(start)])],
    ['monthly-date', wordsOf(presetChoice('monthly-date', start))],
    ['monthly-nth-weekday', monthlyWeekday(false)],
    ...(isInLastWeekOfMonth(start)
      ? [['monthly-last-weekday', monthlyWeekday(true)] as [RepeatOption, string]]
      : []),
    ['yearly', wordsOf(presetChoice('yearly', start))],
    ['custom', 'Custom...'],
    ...(shown ? [] : [['unreadable', 'Custom rule'] as [RepeatOption, string]]),
  ];

  const descriptionId = `${id}-description`;
  const errorIdOf = (control: RepeatControl) =>
    problems.has(control) ? `${id}-${control}-error` : undefined;
  const problemText = (control: RepeatControl) =>
    problems.has(control) && (
      <p id={errorIdOf(control)} className={styles.error}>
        {problems.get(control)}
      </p>
    );
  // A message the form repeats from the field's own checks is shown once, next to its control.
  const fieldError = error && ![...problems.values()].includes(error) ? error : undefined;
  const showsWeekdays =
    shown && (shown.kind === 'weekly' || (shown.kind === 'custom' && shown.unit === 'week'));

  return (
    <div className={styles.repeat}>
      {name && <input type="hidden" name={name} value={value} />}
      <Field as="custom" id={id} label="Repeat" error={fieldError}>
        {(control) => (
          <>
            <select
              {...control}
              aria-describedby={
                [shown ? undefined : descriptionId, control['aria-describedby']].filter(Boolean).join(' ') ||
                undefined
              }
              className={styles.select}
              value={selected}
              onChange={(event) => pickOption(event.target.value as RepeatOption)}
            >
              {options.map(([option, label]) => (
                <option key={option} value={option}>
                  {label}
                </option>
              ))}
            </select>
            {!shown && (
              <p id={descriptionId} className={styles.description}>
                {describeRule(value, start)}
              </p>
            )}
          </>
        )}
      </Field>

      {shown?.kind === 'custom' && (
        <div className={styles.every}>
          <label htmlFor={`${id}-interval`} className={styles.everyLabel}>
            Every
          </label>
          <input
            id={`${id}-interval`}
            type="number"
            inputMode="numeric"
            min={1}
            max={REPEAT_INTERVAL_MAX}
            className={styles.interval}
            value={current.intervalText}
            aria-invalid={problems.has('interval') || undefined}
            aria-describedby={errorIdOf('interval')}
            onChange={(event) =>
              commit(
                { ...shown, interval: wholeNumberTyped(event.target.value) },
                { intervalText: event.target.value },
              )
            }
          />
          <select
            aria-label="Unit"
            className={styles.unit}
            value={shown.unit}
            onChange={(event) => commit({ ...shown, unit: event.target.value as RepeatUnit })}
          >
            {UNIT_NAMES.map((unit) => (
              <option key={unit} value={unit}>
                {shown.interval === 1 ? unit : `${unit}s`}
              </option>
            ))}
          </select>
          {problemText('interval')}
        </div>
      )}

      {showsWeekdays && (
        <div className={styles.weekdays}>
          <Fieldset legend="Repeat on" bodyClassName={styles.days} aria-describedby={errorIdOf('weekdays')}>
            {WEEKDAYS.map((day) => (
              <label key={day} className={styles.day}>
                <input
                  type="checkbox"
                  className={styles.dayInput}
                  checked={shown.weekdays.includes(day)}
                  onChange={() => toggleWeekday(shown, day)}
                />
                <span className={styles.dayMark} aria-hidden="true">
                  {WEEKDAY_NAMES[day].slice(0, 1)}
                </span>
                <VisuallyHidden>{WEEKDAY_NAMES[day]}</VisuallyHidden>
              </label>
            ))}
          </Fieldset>
          {problemText('weekdays')}
        </div>
      )}

      {shown && shown.kind !== 'none' && (
        <Fieldset legend="Ends" bodyClassName={styles.ends}>
          <label className={styles.end}>
            <input
              type="radio"
              name={`${name ?? id}-ends`}
              checked={shown.ends.kind === 'never'}
              onChange={() => pickEnd(shown, 'never')}
            />
            Never
          </label>
          {/* The date and the count stay in place, disabled until their end is picked: picking moves nothing. */}
          <div className={styles.endRow}>
            <label className={styles.end}>
              <input
                type="radio"
                name={`${name ?? id}-ends`}
                checked={shown.ends.kind === 'on'}
                onChange={() => pickEnd(shown, 'on')}
              />
              On
            </label>
            <input
              type="date"
              aria-label="End date"
              className={styles.date}
              value={shown.ends.kind === 'on' ? shown.ends.date : untilDate}
              disabled={shown.ends.kind !== 'on'}
              aria-invalid={problems.has('until') || undefined}
              aria-describedby={errorIdOf('until')}
              onChange={(event) =>
                commit(
                  { ...shown, ends: { kind: 'on', date: event.target.value } },
                  { untilText: event.target.value },
                )
              }
            />
          </div>
          {problemText('until')}
          <div className={styles.endRow}>
            <label className={styles.end}>
              <input
                type="radio"
                name={`${name ?? id}-ends`}
                checked={shown.ends.kind === 'after'}
                onChange={() => pickEnd(shown, 'after')}
              />
              After
            </label>
            <input
              type="number"
              inputMode="numeric"
              min={1}
              max={REPEAT_COUNT_MAX}
              aria-label="Number of times"
              className={styles.count}
              value={current.countText}
              disabled={shown.ends.kind !== 'after'}
              aria-invalid={problems.has('count') || undefined}
              aria-describedby={errorIdOf('count')}
              onChange={(event) =>
                commit(
                  { ...shown, ends: { kind: 'after', count: wholeNumberTyped(event.target.value) } },
                  { countText: event.target.value },
                )
              }
            />
            <span>times</span>
          </div>
          {problemText('count')}
        </Fieldset>
      )}
    </div>
  );
}
