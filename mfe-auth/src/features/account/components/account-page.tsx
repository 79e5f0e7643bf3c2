import { ChangePasswordForm } from './change-password-form';
import { SessionsCard } from './sessions-card';
import styles from './account-page.module.css';

export function AccountPage() {
  return (
    <section className={styles.page} aria-labelledby="account-page-title">
      <header>
        <h1 id="account-page-title" className={styles.title}>
          Account security
        </h1>
        <p className={styles.subtitle}>Your password and the devices signed in to your account</p>
      </header>
      <ChangePasswordForm />
      <SessionsCard />
    </section>
  );
}
