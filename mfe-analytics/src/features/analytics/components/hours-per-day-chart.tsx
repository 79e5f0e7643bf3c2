import type { CSSProperties } from 'react';
import { formatHours, SHORT_WEEKDAYS, weekdayIndexOf, type DayBar } from '../lib/analytics-figures';
import styles from './hours-per-day-chart.module.css';

const TICK_COUNT = 4;

/** The top of the axis: the highest bar or budget of the week, at least 1, rounded up to a whole tick. */
export function axisMaximum(bars: DayBar[]): number {
  const highest = Math.max(
    1,
    ...bars.flatMap((bar) => [bar.plannedHours, bar.trackedHours, bar.budgetHours]),
  );
  return Math.ceil(highest / TICK_COUNT) * TICK_COUNT;
}

interface HoursPerDayChartProps {
  bars: DayBar[];
  today: string;
  loading: boolean;
}

/** A bar at least this share of the axis holds its value inside, near its top, so the value stays in the plot. */
export const INSIDE_LABEL_SHARE = 0.85;

interface BarProps {
  kind: 'planned' | 'tracked';
  date: string;
  hours: number;
  maximum: number;
  /** The part of a plan above its budget, in hours (the server's over); planned bars only. */
  overHours?: number;
}

/**
 * One bar with its value as its own child, so the value sits on that bar, just above it, or inside its top when the bar
 * is tall, wherever the bar beside it or the budget marker is. Nothing for a bar of no time: the table has its 0.0.
 */
function Bar({ kind, date, hours, maximum, overHours = 0 }: BarProps) {
  if (hours <= 0) return null;
  const share = Math.min(hours, maximum) / maximum;
  return (
    <span
      className={kind === 'planned' ? styles.planned : styles.tracked}
      data-testid={`${kind}-${date}`}
      data-label={share >= INSIDE_LABEL_SHARE ? 'inside' : 'above'}
    >
      {overHours > 0 && (
        <span
          className={styles.over}
          data-testid={`over-budget-${date}`}
          style={{ height: `${(Math.min(overHours, hours) / hours) * 100}%` }}
        />
      )}
      <span className={styles.value}>{formatHours(hours)}</span>
    </span>
  );
}

/**
 * Per day, planned and tracked hours as two bars side by side, each carrying its own value, and that weekday's budget
 * as a dashed marker; the part of a plan above its budget (the server's over) is drawn apart. The drawing is HTML
 * scaled by CSS custom properties, so it stays readable at any width; a table carries the same figures for assistive
 * technology. While the figures load the frame (grid and weekdays) is already drawn, so the bars fill it in place.
 */
export function HoursPerDayChart({ bars, today, loading }: HoursPerDayChartProps) {
  const maximum = axisMaximum(bars);
  const heightOf = (hours: number) => `${(Math.min(Math.max(hours, 0), maximum) / maximum) * 100}%`;
  const ticks = Array.from({ length: TICK_COUNT + 1 }, (_, index) => (maximum / TICK_COUNT) * index);
  const todaysWeekday = weekdayIndexOf(today);

  return (
    <div className={styles.chart}>
      <div className={styles.plot} aria-hidden="true" data-testid="hours-per-day-plot">
        <div className={styles.yAxis}>
          {!loading &&
            ticks.map((tick) => (
              <span key={tick} className={styles.tick} style={{ bottom: heightOf(tick) }}>
                {tick}
              </span>
            ))}
        </div>
        <div className={styles.area}>
          {ticks.map((tick, index) => (
            <span
              key={tick}
              className={styles.gridLine}
              style={{ bottom: `${(index / TICK_COUNT) * 100}%` }}
            />
          ))}
          {!loading && (
            <div className={styles.days}>
              {bars.map((bar) => (
                <div
                  key={bar.date}
                  data-testid={`day-${bar.date}`}
                  className={styles.day}
                  style={
                    {
                      '--planned': heightOf(bar.plannedHours),
                      '--tracked': heightOf(bar.trackedHours),
                      '--budget': heightOf(bar.budgetHours),
                    } as CSSProperties
                  }
                >
                  <span className={styles.column}>
                    <Bar
                      kind="planned"
                      date={bar.date}
                      hours={bar.plannedHours}
                      maximum={maximum}
                      overHours={bar.overHours}
                    />
                  </span>
                  <span className={styles.column}>
                    <Bar kind="tracked" date={bar.date} hours={bar.trackedHours} maximum={maximum} />
                  </span>
                  <span className={styles.budget} />
                </div>
              ))}
            </div>
          )}
        </div>
        <div className={styles.xAxis}>
          {SHORT_WEEKDAYS.map((weekday, index) => (
            <span key={weekday} className={index === todaysWeekday ? styles.today : undefined}>
              {weekday}
            </span>
          ))}
        </div>
      </div>
      {/* A table cannot be narrower than its content, so the wrapper is what hides it. */}
      {!loading && (
        <div className="visually-hidden">
          <table>
            <caption>Planned, tracked and budget hours per day this week</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Planned hours</th>
                <th scope="col">Tracked hours</th>
                <th scope="col">Budget hours</th>
                <th scope="col">Hours left</th>
              </tr>
            </thead>
            <tbody>
              {bars.map((bar) => (
                <tr key={bar.date}>
                  <th scope="row">
                    {bar.weekday} {bar.date}
                    {bar.date === today ? ' (today)' : ''}
                  </th>
                  <td>
                    {formatHours(bar.plannedHours)}
                    {bar.overBudget ? ` (over budget by ${bar.overAmount})` : ''}
                  </td>
                  <td>{formatHours(bar.trackedHours)}</td>
                  <td>{formatHours(bar.budgetHours)}</td>
                  <td>{formatHours(bar.remainingHours)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ul className={styles.legend} aria-label="Legend">
        <li className={styles.legendItem}>
          <span className={styles.legendPlanned} aria-hidden="true" /> Planned
        </li>
        <li className={styles.legendItem}>
          <span className={styles.legendTracked} aria-hidden="true" /> Tracked
        </li>
        <li className={styles.legendItem}>
          <span className={styles.legendBudget} aria-hidden="true" /> Budget
        </li>
        <li className={styles.legendItem}>
          <span className={styles.legendOver} aria-hidden="true" /> Over budget
        </li>
      </ul>
    </div>
  );
}
