import { pageText } from '@time-wallet/api/page-text';
import { Page } from '@time-wallet/shared-ui';
import { ChangePasswordForm } from './change-password-form';
import { NotificationsCard } from './notifications-card';
import { SessionsCard } from './sessions-card';
import styles from './account-page.module.css';

/** The page's heading and subtitle, one fact in the registry (the shell prerenders them too). */
const TEXT = pageText('account');

export function AccountPage() {
  return (
    <Page titleId="account-page-title" title={TEXT.heading} subtitle={TEXT.subtitle} className={styles.page}>
      <ChangePasswordForm />
      <SessionsCard />
      <NotificationsCard />
    </Page>
  );
}
