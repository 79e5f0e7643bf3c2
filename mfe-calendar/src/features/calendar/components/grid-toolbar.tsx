import { Button, IconButton } from '@time-wallet/shared-ui';
import styles from './week-grid.module.css';

export interface GridToolbarProps {
  /** What Previous and Next move by: 'week', 'day' or 'month'. */
  unit: string;
  title: string;
  containsToday: boolean;
  loading: boolean;
  onToday?: () => void;
  onPrevious?: () => void;
  onNext?: () => void;
}

/**
 * The grids' own toolbar (FullCalendar's icon font is refused by the page's CSP and its icons have no names). One
 * component for the week, the month and the frame drawn before FullCalendar, so the three have the same geometry.
 */
export function GridToolbar({
  unit,
  title,
  containsToday,
  loading,
  onToday,
  onPrevious,
  onNext,
}: GridToolbarProps) {
  return (
    <div className={styles.toolbar}>
      <div className={styles.navigation}>
        <Button variant="secondary" disabled={containsToday} onClick={onToday}>
          today
        </Button>
        <IconButton label={`Previous ${unit}`} className={styles.navButton} onClick={onPrevious}>
          <span aria-hidden="true">‹</span>
        </IconButton>
        <IconButton label={`Next ${unit}`} className={styles.navButton} onClick={onNext}>
          <span aria-hidden="true">›</span>
        </IconButton>
      </div>
      <h2 className={styles.title} aria-live="polite">
        {title}
      </h2>
      <p className={styles.status} role="status">
        {loading ? 'Loading events...' : ''}
      </p>
    </div>
  );
}
