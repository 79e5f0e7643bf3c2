import type { CSSProperties } from 'react';
import { Skeleton } from '@time-wallet/shared-ui';
import { formatHours, type DayBar } from '../lib/analytics-figures';
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

/**
 * Per day, planned and tracked hours as two bars side by side and that weekday's budget as a dashed marker; the part
 * of a plan above its budget is drawn apart. The drawing is HTML scaled by CSS custom properties, so it stays
 * readable at any width; a table carries the same figures for assistive technology.
 */
export function HoursPerDayChart({ bars, today, loading }: HoursPerDayChartProps) {
  const maximum = axisMaximum(bars);
  const heightOf = (hours: number) => `${(Math.min(Math.max(hours, 0), maximum) / maximum) * 100}%`;
  const ticks = Array.from({ length: TICK_COUNT + 1 }, (_, index) => (maximum / TICK_COUNT) * index);

  return (
    <div className={styles.chart}>
      {loading ? (
        <Skeleton height="var(--plot-total)" />
      ) : (
        <div className={styles.plot} aria-hidden="true">
          <div className={styles.yAxis}>
            {ticks.map((tick) => (
              <span key={tick} className={styles.tick} style={{ bottom: heightOf(tick) }}>
                {tick}
              </span>
            ))}
          </div>
          <div className={styles.area}>
            {ticks.map((tick) => (
              <span key={tick} className={styles.gridLine} style={{ bottom: heightOf(tick) }} />
            ))}
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
                    {bar.plannedHours > 0 && (
                      <>
                        <span className={styles.planned} />
                        {bar.overBudget && (
                          <span className={styles.over} data-testid={`over-budget-${bar.date}`} />
                        )}
                        <span className={styles.plannedValue}>{formatHours(bar.plannedHours)}</span>
                      </>
                    )}
                  </span>
                  <span className={styles.column}>
                    {bar.trackedHours > 0 && (
                      <>
                        <span className={styles.tracked} />
                        <span className={styles.trackedValue}>{formatHours(bar.trackedHours)}</span>
                      </>
                    )}
                  </span>
                  <span className={styles.budget} />
                </div>
              ))}
            </div>
          </div>
          <div className={styles.xAxis}>
            {bars.map((bar) => (
              <span key={bar.date} className={bar.date === today ? styles.today : undefined}>
                {bar.shortWeekday}
              </span>
            ))}
          </div>
        </div>
      )}
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
                    {bar.overBudget ? ' (over budget)' : ''}
                  </td>
                  <td>{formatHours(bar.trackedHours)}</td>
                  <td>{formatHours(bar.budgetHours)}</td>
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
