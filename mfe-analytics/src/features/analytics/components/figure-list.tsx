import { Skeleton } from '@time-wallet/shared-ui';
import styles from './figure-list.module.css';

export interface Figure {
  label: string;
  value: string;
  unit: string;
}

/** Labelled figures with their units, e.g. last week against this week; skeletons of the same height while loading. */
export function FigureList({ figures, loading }: { figures: Figure[]; loading: boolean }) {
  return (
    <dl className={styles.figures}>
      {figures.map(({ label, value, unit }) => (
        <div key={label} className={styles.figure}>
          <dt className={styles.label}>{label}</dt>
          <dd className={styles.value}>
            {loading ? (
              <Skeleton width="5rem" height="1.75rem" />
            ) : (
              <>
                <span className={styles.number}>{value}</span> <span className={styles.unit}>{unit}</span>
              </>
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}
