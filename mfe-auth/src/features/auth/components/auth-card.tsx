import type { ReactNode } from 'react';
import { Link } from '@time-wallet/api/router';
import styles from './auth-card.module.css';

interface AuthCardProps {
  title: string;
  subtitle?: string;
  backTo?: string;
  children: ReactNode;
}

export function AuthCard({ title, subtitle, backTo = '/', children }: AuthCardProps) {
  return (
    <main className={styles.screen}>
      <section className={styles.card} aria-labelledby="auth-title">
        <Link to={backTo} className={styles.back}>
          <span aria-hidden="true">←</span> Back
        </Link>
        <h1 id="auth-title" className={styles.title}>
          {title}
        </h1>
        {subtitle && <p className={styles.subtitle}>{subtitle}</p>}
        {children}
      </section>
    </main>
  );
}
