import { useGetCategoriesQuery } from '@time-wallet/api';
import styles from './tags-page.module.css';

export function TagsPage() {
  const { data: categories = [], isLoading } = useGetCategoriesQuery();
  return (
    <section className={styles.page} aria-labelledby="tags-page-title">
      <header>
        <h1 id="tags-page-title" className={styles.title}>
          Your Tags
        </h1>
        <p className={styles.subtitle}>Double click to edit your tags</p>
      </header>
      <p className={styles.status} aria-live="polite">
        {isLoading ? 'Loading your categories…' : `${categories.length} categories`}
      </p>
    </section>
  );
}
