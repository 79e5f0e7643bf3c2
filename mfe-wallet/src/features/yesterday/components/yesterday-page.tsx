import { useGetCategoriesQuery } from '@time-wallet/api';
import styles from './yesterday-page.module.css';

export function YesterdayPage() {
  const { data: categories = [], isLoading } = useGetCategoriesQuery();
  return (
    <section className={styles.page} aria-labelledby="yesterday-page-title">
      <header>
        <h1 id="yesterday-page-title" className={styles.title}>
          Pick Up Where You Left Off
        </h1>
        <p className={styles.subtitle}>Unfinished tasks you can bring forward into today</p>
      </header>
      <p className={styles.status} aria-live="polite">
        {isLoading ? 'Loading your categories…' : `${categories.length} categories`}
      </p>
    </section>
  );
}
