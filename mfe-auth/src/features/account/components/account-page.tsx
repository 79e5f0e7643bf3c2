import { Page } from '@time-wallet/shared-ui';
import { ChangePasswordForm } from './change-password-form';
import { SessionsCard } from './sessions-card';
import styles from './account-page.module.css';

export function AccountPage() {
  return (
    <Page
      titleId="account-page-title"
      title="Account security"
      subtitle="Your password and the devices signed in to your account"
      className={styles.page}
    >
      <ChangePasswordForm />
      <SessionsCard />
    </Page>
  );
}
