import type { ReactNode } from 'react';
import { getRuntimeConfig, INACTIVITY_TIMEOUT_MS, selectSession, useAppSelector } from '@time-wallet/api';
import { Link } from '@time-wallet/api/router';
import { Banner } from '@time-wallet/shared-ui';
import styles from './landing-page.module.css';

/** After an inactivity sign-out the person lands here: say why, so it does not look like a fault. */
function SignedOutNotice() {
  const { endedBy } = useAppSelector(selectSession);
  if (endedBy !== 'inactivity') return null;
  const minutes = Math.round((getRuntimeConfig().inactivityTimeoutMs ?? INACTIVITY_TIMEOUT_MS) / 60_000);
  return (
    <Banner tone="info" className={styles.notice}>
      You were signed out after {minutes === 1 ? 'a minute' : `${minutes} minutes`} without activity, to keep
      your wallet safe. Sign in again to carry on.
    </Banner>
  );
}

/**
 * The landing page's content, which needs no store and no script: the build renders it to the static HTML served for
 * / and /landing (src/app/prerender.tsx), and the single-page app draws it when it navigates to /. Its links are plain
 * anchors there, so "Get Started" works before (and without) any of the app's JavaScript.
 */
export function LandingContent({ notice }: { notice?: ReactNode }) {
  return (
    <div className={styles.page}>
      {notice}
      <header className={styles.header}>
        <span className={styles.brand}>
          <svg viewBox="0 0 32 32" width="28" height="28" aria-hidden="true">
            <rect width="32" height="32" rx="8" fill="var(--color-primary)" />
            <circle cx="16" cy="16" r="9" fill="none" stroke="#fff" strokeWidth="2.5" />
            <path d="M16 10v6l4 3" fill="none" stroke="#fff" strokeWidth="2.5" strokeLinecap="round" />
          </svg>
          Time Wallet
        </span>
      </header>
      <main className={styles.hero}>
        <section className={styles.copy}>
          <h1 className={styles.headline}>Organize everything in your life</h1>
          <p className={styles.lead}>
            Spend your day like a budget: give every task and event its hours, see what is left, and plan the
            week ahead.
          </p>
          <Link to="/auth/login" className={styles.cta}>
            Get Started
          </Link>
          <p className={styles.social}>450k people have joined</p>
        </section>
        <section className={styles.samples} aria-label="Example tasks">
          <article className={styles.card}>
            <h2 className={styles.cardTitle}>Groceries Shopping</h2>
            <p className={styles.cardMeta}>09:00 - 10:00</p>
          </article>
          <article className={styles.card}>
            <div className={styles.cardHead}>
              <h2 className={styles.cardTitle}>Finish AI &amp; ML Report</h2>
              <span className={styles.badge}>Priority</span>
            </div>
            <p className={styles.cardMeta}>13:00 - 16:30</p>
          </article>
        </section>
      </main>
    </div>
  );
}

/** The landing page inside the app: the same content, plus why the session ended when it idled out in this visit. */
export function LandingPage() {
  return <LandingContent notice={<SignedOutNotice />} />;
}
