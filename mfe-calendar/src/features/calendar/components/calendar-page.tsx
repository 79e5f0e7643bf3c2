import { useGetCategoriesQuery } from '@time-wallet/api';
import styles from './calendar-page.module.css';

export function CalendarPage() {
  const { data: categories = [], isLoading } = useGetCategoriesQuery();
  return (
    <section className={styles.page} aria-labelledby="calendar-page-title">
      <header>
        <h1 id="calendar-page-title" className={styles.title}>
          Calendar
        </h1>
        <p className={styles.subtitle}>Plan your week</p>
      </header>
      <p className={styles.status} aria-live="polite">
        {isLoading ? 'Loading your categories…' : `${categories.length} categories`}
      </p>
    </section>
  );
}
