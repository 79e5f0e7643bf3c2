import { EmptyState } from '@time-wallet/shared-ui';
import { categoryColor, type CategoryMinutes } from '../lib/category-shares';
import { formatHours } from '../lib/analytics-figures';
import { CategoryLabel } from './category-label';
import styles from './category-share-chart.module.css';

// r = 100 / 2π, so the circumference is 100 and a share in percent is its own dash length.
const RADIUS = 15.9155;
const CENTRE = 21;

interface CategoryShareChartProps {
  byCategory: CategoryMinutes[];
  /** The week's planned minutes, the server's total of every category's time. */
  totalMinutes: number;
}

/** Every category of the week as a ring; its legend, with hours and the server's shares, is the text alternative. */
export function CategoryShareChart({ byCategory, totalMinutes }: CategoryShareChartProps) {
  const categories = byCategory.filter((category) => category.minutes > 0);
  if (totalMinutes <= 0 || categories.length === 0) {
    return <EmptyState>No planned time this week yet.</EmptyState>;
  }

  // The ring is drawn from the minutes so its segments close exactly; the rounded shares are only written.
  const drawnMinutes = categories.reduce((sum, category) => sum + category.minutes, 0);
  const lengths = categories.map((category) => (category.minutes / drawnMinutes) * 100);
  const segments = categories.map((category, index) => {
    const drawnBefore = lengths.slice(0, index).reduce((sum, length) => sum + length, 0);
    // Dashes start at 3 o'clock; an offset of 25 starts the first at 12 o'clock.
    return { category, length: lengths[index], offset: 25 - drawnBefore };
  });

  return (
    <div className={styles.chart}>
      <div className={styles.ring}>
        <svg viewBox="0 0 42 42" className={styles.svg} aria-hidden="true" focusable="false">
          <circle className={styles.track} cx={CENTRE} cy={CENTRE} r={RADIUS} />
          {segments.map(({ category, length, offset }) => (
            <circle
              key={category.categoryId}
              className={styles.segment}
              cx={CENTRE}
              cy={CENTRE}
              r={RADIUS}
              style={{ stroke: categoryColor(category.color) }}
              strokeDasharray={`${length} ${100 - length}`}
              strokeDashoffset={offset}
            />
          ))}
        </svg>
        <span className={styles.total}>
          <strong>{formatHours(totalMinutes / 60)}</strong>
          <span>hours planned</span>
        </span>
      </div>
      <ul className={styles.legend} aria-label="Time per category this week">
        {categories.map((category) => (
          <li key={category.categoryId}>
            <CategoryLabel name={category.name} color={categoryColor(category.color)}>
              <span className={styles.figures}>
                {formatHours(category.minutes / 60)} h · {category.percent}%
              </span>
            </CategoryLabel>
          </li>
        ))}
      </ul>
    </div>
  );
}
