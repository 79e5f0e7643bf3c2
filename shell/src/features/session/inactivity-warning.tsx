import { useRef } from 'react';
import { Button, Modal } from '@time-wallet/shared-ui';
import type { InactivityWarningState } from './use-inactivity-logout';

/** The minute's notice before an inactivity sign-out: how long is left, and the one button that keeps the session. */
export function InactivityWarning({ secondsLeft, staySignedIn }: InactivityWarningState) {
  const stayRef = useRef<HTMLButtonElement>(null);
  if (secondsLeft === null) return null;
  return (
    <Modal
      open
      role="alertdialog"
      title="Still there?"
      width="24rem"
      initialFocusRef={stayRef}
      onClose={staySignedIn}
      footer={
        <Button ref={stayRef} onClick={staySignedIn}>
          Stay signed in
        </Button>
      }
    >
      <p aria-live="off">You will be signed out in {secondsLeft} s</p>
    </Modal>
  );
}
