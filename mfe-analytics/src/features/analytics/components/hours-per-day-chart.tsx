import { formatHours, type DayBar } from '../lib/analytics-figures';
import styles from './hours-per-day-chart.module.css';

const SLOT_WIDTH = 100;
const BAR_WIDTH = 56;
const PLOT_HEIGHT = 100;
const TICK_COUNT = 4;

/** The top of the axis: the budget or the longest day, whichever is more, rounded up to a whole tick. */
export function axisMaximum(bars: DayBar[], budgetHours: number): number {
  const highest = Math.max(budgetHours, ...bars.map((bar) => bar.hours), 1);
  return Math.ceil(highest / TICK_COUNT) * TICK_COUNT;
}

interface HoursPerDayChartProps {
  bars: DayBar[];
  budgetHours: number;
  today: string;
}

/**
 * Bars of this week's hours per day with the daily budget as a line. The bars are SVG; the labels are HTML so they
 * stay readable at any width; a table carries the same figures for assistive technology.
 */
export function HoursPerDayChart({ bars, budgetHours, today }: HoursPerDayChartProps) {
  const maximum = axisMaximum(bars, budgetHours);
  const heightOf = (hours: number) => (Math.min(hours, maximum) / maximum) * PLOT_HEIGHT;
  const ticks = Array.from({ length: TICK_COUNT + 1 }, (_, index) => (maximum / TICK_COUNT) * index);

  return (
    <figure className={styles.chart}>
      <div className={styles.plot} aria-hidden="true">
        <div className={styles.yAxis}>
          {ticks.map((tick) => (
            <span key={tick} className={styles.tick} style={{ bottom: `${(tick / maximum) * 100}%` }}>
              {tick}
            </span>
          ))}
        </div>
        <div className={styles.area}>
          <svg
            className={styles.svg}
            viewBox={`0 0 ${SLOT_WIDTH * bars.length} ${PLOT_HEIGHT}`}
            preserveAspectRatio="none"
            focusable="false"
          >
            {ticks.map((tick) => (
              <line
                key={tick}
                className={styles.gridLine}
                x1={0}
                x2={SLOT_WIDTH * bars.length}
                y1={PLOT_HEIGHT - heightOf(tick)}
                y2={PLOT_HEIGHT - heightOf(tick)}
                vectorEffect="non-scaling-stroke"
              />
            ))}
            {bars.map((bar, index) => (
              <rect
                key={bar.date}
                data-testid={`bar-${bar.date}`}
                className={bar.overBudget ? styles.barOverBudget : styles.bar}
                x={index * SLOT_WIDTH + (SLOT_WIDTH - BAR_WIDTH) / 2}
                y={PLOT_HEIGHT - heightOf(bar.hours)}
                width={BAR_WIDTH}
                height={heightOf(bar.hours)}
              />
            ))}
            <line
              className={styles.budgetLine}
              x1={0}
              x2={SLOT_WIDTH * bars.length}
              y1={PLOT_HEIGHT - heightOf(budgetHours)}
              y2={PLOT_HEIGHT - heightOf(budgetHours)}
              vectorEffect="non-scaling-stroke"
            />
          </svg>
          <div className={styles.values}>
            {bars.map((bar) => (
              <span key={bar.date} className={styles.valueSlot}>
                {bar.hours > 0 && (
                  <span
                    className={styles.value}
                    style={{ bottom: `${(heightOf(bar.hours) / PLOT_HEIGHT) * 100}%` }}
                  >
                    {formatHours(bar.hours)}
                  </span>
                )}
              </span>
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
      {/* A table cannot be narrower than its content, so the wrapper is what hides it. */}
      <div className="visually-hidden">
        <table>
          <caption>
            Hours spent per day this week, against a daily budget of {formatHours(budgetHours)} hours
          </caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Hours spent</th>
              <th scope="col">Productive hours</th>
            </tr>
          </thead>
          <tbody>
            {bars.map((bar) => (
              <tr key={bar.date}>
                <th scope="row">
                  {bar.weekday} {bar.date}
                  {bar.date === today ? ' (today)' : ''}
                </th>
                <td>{formatHours(bar.hours)}</td>
                <td>{formatHours(bar.productiveHours)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <figcaption className={styles.legend}>
        <span className={styles.legendItem}>
          <span className={styles.legendBar} aria-hidden="true" /> Hours spent
        </span>
        <span className={styles.legendItem}>
          <span className={styles.legendOver} aria-hidden="true" /> Over budget
        </span>
        <span className={styles.legendItem}>
          <span className={styles.legendBudget} aria-hidden="true" /> Daily budget ({formatHours(budgetHours)}{' '}
          h)
        </span>
      </figcaption>
    </figure>
  );
}
