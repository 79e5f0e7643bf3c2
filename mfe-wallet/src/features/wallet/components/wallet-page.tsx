import { useGetCategoriesQuery } from '@time-wallet/api';
import styles from './wallet-page.module.css';

export function WalletPage() {
  const { data: categories = [], isLoading } = useGetCategoriesQuery();
  return (
    <section className={styles.page} aria-labelledby="wallet-page-title">
      <header>
        <h1 id="wallet-page-title" className={styles.title}>
          Manage Time Wallet
        </h1>
        <p className={styles.subtitle}>Balance habits, reminders, events, activites</p>
      </header>
      <p className={styles.status} aria-live="polite">
        {isLoading ? 'Loading your categories…' : `${categories.length} categories`}
      </p>
    </section>
  );
}
