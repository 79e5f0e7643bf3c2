import { useGetCategoriesQuery } from '@time-wallet/api';
import styles from './today-page.module.css';

export function TodayPage() {
  const { data: categories = [], isLoading } = useGetCategoriesQuery();
  return (
    <section className={styles.page} aria-labelledby="today-page-title">
      <header>
        <h1 id="today-page-title" className={styles.title}>
          Today Activities
        </h1>
        <p className={styles.subtitle}>Manage your habits, reminders, events, activites</p>
      </header>
      <p className={styles.status} aria-live="polite">
        {isLoading ? 'Loading your categories…' : `${categories.length} categories`}
      </p>
    </section>
  );
}
