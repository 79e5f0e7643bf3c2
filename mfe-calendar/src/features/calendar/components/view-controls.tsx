import { Field } from '@time-wallet/shared-ui';
import styles from './view-controls.module.css';

export type CalendarView = 'week' | 'month';

const VIEWS: readonly [CalendarView, string][] = [
  ['week', 'Week'],
  ['month', 'Month'],
];
const DATE_KEY = /^\d{4}-\d{2}-\d{2}$/;

/** Reads the view from the URL's `view` parameter: the month only when it says so, the week otherwise. */
export const viewOf = (param: string | null): CalendarView => (param === 'month' ? 'month' : 'week');

export interface ViewControlsProps {
  view: CalendarView;
  onViewChange: (view: CalendarView) => void;
  /** A whole day typed or picked in "Go to date", as 'YYYY-MM-DD'. */
  onGoTo: (day: string) => void;
}

/** "Week | Month" (toggle buttons, the shown one pressed) and "Go to date", above either grid. */
export function ViewControls({ view, onViewChange, onGoTo }: ViewControlsProps) {
  return (
    <div className={styles.controls}>
      <div role="group" aria-label="View" className={styles.segments}>
        {VIEWS.map(([value, label]) => (
          <button
            key={value}
            type="button"
            className={styles.segment}
            aria-pressed={view === value}
            onClick={() => {
              if (view !== value) onViewChange(value);
            }}
          >
            {label}
          </button>
        ))}
      </div>
      <Field
        label="Go to date"
        type="date"
        className={styles.goTo}
        onChange={(event: { target: { value: string } }) => {
          // A date input gives '' until its day is whole, and then the day as YYYY-MM-DD.
          if (DATE_KEY.test(event.target.value)) onGoTo(event.target.value);
        }}
      />
    </div>
  );
}
