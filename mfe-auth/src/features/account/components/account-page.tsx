import { PageHeader } from '@time-wallet/shared-ui';
import { ChangePasswordForm } from './change-password-form';
import { SessionsCard } from './sessions-card';
import styles from './account-page.module.css';

export function AccountPage() {
  return (
    <section className={styles.page} aria-labelledby="account-page-title">
      <PageHeader
        titleId="account-page-title"
        title="Account security"
        subtitle="Your password and the devices signed in to your account"
      />
      <ChangePasswordForm />
      <SessionsCard />
    </section>
  );
}
