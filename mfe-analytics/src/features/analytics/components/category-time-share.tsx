import { Skeleton } from '@time-wallet/shared-ui';
import type { CategoryShare } from '../lib/category-shares';
import { CategoryLabel } from './category-label';
import styles from './category-time-share.module.css';

/** The top three categories, each with its share in its colour; 'No data 0%' rows fill the rest. */
export function CategoryTimeShare({ shares, loading }: { shares: CategoryShare[]; loading: boolean }) {
  if (loading) {
    return (
      <ol className={styles.shares}>
        {[0, 1, 2].map((row) => (
          <li key={row} className={styles.share}>
            <Skeleton width="100%" height="2.25rem" />
          </li>
        ))}
      </ol>
    );
  }
  return (
    <ol className={styles.shares}>
      {shares.map((share, index) => (
        <li key={share.categoryId ?? `no-data-${index}`} className={styles.share}>
          <CategoryLabel name={share.name} color={share.color}>
            <span className={styles.percent}>{share.percent}%</span>
          </CategoryLabel>
          <span className={styles.track} aria-hidden="true">
            <span className={styles.bar} style={{ width: `${share.percent}%`, background: share.color }} />
          </span>
        </li>
      ))}
    </ol>
  );
}
