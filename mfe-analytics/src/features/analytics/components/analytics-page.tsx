import { useGetCategoriesQuery } from '@time-wallet/api';
import styles from './analytics-page.module.css';

export function AnalyticsPage() {
  const { data: categories = [], isLoading } = useGetCategoriesQuery();
  return (
    <section className={styles.page} aria-labelledby="analytics-page-title">
      <header>
        <h1 id="analytics-page-title" className={styles.title}>
          Time Wallet Analytics
        </h1>
        <p className={styles.subtitle}>See how you progress this week</p>
      </header>
      <p className={styles.status} aria-live="polite">
        {isLoading ? 'Loading your categories…' : `${categories.length} categories`}
      </p>
    </section>
  );
}
