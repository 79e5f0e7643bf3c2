import { useId, type FormEvent, type ReactNode } from 'react';
import { Banner, Button, Modal, type ButtonVariant } from '@time-wallet/shared-ui';
import styles from './form-dialog.module.css';

export interface FormDialogProps {
  title: string;
  width: string;
  /** Why the last save failed, shown inside the dialog (the page's banner sits behind its backdrop). */
  error?: string | null;
  busy: boolean;
  submitLabel: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  onClose: () => void;
  /** An action apart from saving (Delete, Unschedule), set at the start of the actions. */
  sideAction?: { label: string; variant: ButtonVariant; onClick: () => void };
  /** Described by, for the form as a whole (a line under its fields' labels). */
  describedBy?: string;
  children: ReactNode;
}

/** The calendar's dialogs: a form with its failure on top, then a side action, Cancel and the submit button. */
export function FormDialog({
  title,
  width,
  error,
  busy,
  submitLabel,
  onSubmit,
  onClose,
  sideAction,
  describedBy,
  children,
}: FormDialogProps) {
  const formId = useId();
  return (
    <Modal
      open
      title={title}
      onClose={onClose}
      width={width}
      footer={
        <div className={styles.actions}>
          {sideAction && (
            <Button
              variant={sideAction.variant}
              className={styles.sideAction}
              onClick={sideAction.onClick}
              disabled={busy}
            >
              {sideAction.label}
            </Button>
          )}
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form={formId} busy={busy}>
            {submitLabel}
          </Button>
        </div>
      }
    >
      <form id={formId} className={styles.form} onSubmit={onSubmit} aria-describedby={describedBy} noValidate>
        {error && <Banner tone="error">{error}</Banner>}
        {children}
      </form>
    </Modal>
  );
}
