import { useState } from 'react';
import toast from 'react-hot-toast';
import { isNetworkError } from '@time-wallet/api';
import { useNavigate } from '@time-wallet/api/router';
import { Button, Modal } from '@time-wallet/shared-ui';
import { useSignOutEverywhereMutation } from '../api/sessions-api';
import styles from './sessions-card.module.css';

/** The address of the product's one sign-out: it clears this device and ends the session in the store. */
const LOGOUT_PATH = '/app/logout';

/** Ends every session of the account after a confirmation, then signs this device out the usual way. */
export function SignOutEverywhere() {
  const [confirming, setConfirming] = useState(false);
  const [signOutEverywhere, { isLoading }] = useSignOutEverywhereMutation();
  const navigate = useNavigate();

  async function confirm() {
    const result = await signOutEverywhere();
    if ('error' in result) {
      toast.error(
        isNetworkError(result.error)
          ? 'Network error. Please check your connection and try again.'
          : 'Could not sign out everywhere. Please try again.',
      );
      return;
    }
    navigate(LOGOUT_PATH, { replace: true });
  }

  return (
    <>
      <p className={styles.everywhereText}>
        Lost a device, or signed in somewhere you should not have? End every session at once, this one
        included.
      </p>
      <Button variant="secondary" onClick={() => setConfirming(true)}>
        Sign out everywhere
      </Button>
      <Modal
        open={confirming}
        title="Sign out everywhere?"
        onClose={() => {
          if (!isLoading) setConfirming(false);
        }}
        width="26rem"
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirming(false)} disabled={isLoading}>
              Cancel
            </Button>
            <Button
              variant="danger"
              onClick={() => void confirm()}
              busy={isLoading}
              busyLabel="Signing out..."
            >
              Sign out everywhere
            </Button>
          </>
        }
      >
        <p className={styles.confirmation}>
          Every device signed in to your account will be signed out, this one included. You will need to sign
          in again.
        </p>
      </Modal>
    </>
  );
}
