import { useId, useState, type FormEvent } from 'react';
import { Button, Fieldset, Modal } from '@time-wallet/shared-ui';
import type { SeriesScope } from '../api/events-api';
import styles from './scope-dialog.module.css';

const SCOPE_LABELS: readonly [SeriesScope, string][] = [
  ['this', 'This event'],
  ['following', 'This and following events'],
  ['all', 'All events'],
];

/** What is asked: saving the form, deleting, or a block moved or resized on the grid. */
export type ScopeAction = 'edit' | 'delete' | 'move';

const WORDING: Readonly<Record<ScopeAction, { title: string; legend: string; confirm: string }>> = {
  edit: { title: 'Edit recurring event', legend: 'Save the changes to', confirm: 'Save' },
  move: { title: 'Edit recurring event', legend: 'Move', confirm: 'Save' },
  delete: { title: 'Delete recurring event', legend: 'Delete', confirm: 'Delete' },
};

export interface ScopeDialogProps {
  action: ScopeAction;
  /** False for an edit that changes the repeat rule, which only a series edit can make. */
  allowThis?: boolean;
  busy: boolean;
  onChoose: (scope: SeriesScope) => void;
  onCancel: () => void;
}

/**
 * Which occurrences of a repeating event an edit, a move or a delete is for, asked the calendar apps' way: a radio
 * group (arrow keys move between the choices), Enter or the confirm button to go on, Escape or Cancel to go back.
 */
export function ScopeDialog({ action, allowThis = true, busy, onChoose, onCancel }: ScopeDialogProps) {
  const choices = SCOPE_LABELS.filter(([scope]) => allowThis || scope !== 'this');
  const [scope, setScope] = useState<SeriesScope>(choices[0][0]);
  const formId = useId();
  const wording = WORDING[action];
  // Leaving while the request runs would hide its outcome.
  const cancelUnlessBusy = () => {
    if (!busy) onCancel();
  };
  const choose = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onChoose(scope);
  };

  return (
    <Modal
      open
      title={wording.title}
      width="22rem"
      onClose={cancelUnlessBusy}
      footer={
        <>
          <Button variant="secondary" onClick={cancelUnlessBusy} disabled={busy}>
            Cancel
          </Button>
          <Button
            type="submit"
            form={formId}
            variant={action === 'delete' ? 'danger' : 'primary'}
            busy={busy}
          >
            {wording.confirm}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={choose} aria-label={wording.title} noValidate>
        <Fieldset legend={wording.legend} bodyClassName={styles.choices}>
          {choices.map(([value, label]) => (
            <label key={value} className={styles.choice}>
              <input
                type="radio"
                name={`${formId}-scope`}
                value={value}
                checked={scope === value}
                onChange={() => setScope(value)}
              />
              {label}
            </label>
          ))}
        </Fieldset>
      </form>
    </Modal>
  );
}
