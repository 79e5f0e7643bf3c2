import { useId, useState, type FormEvent } from 'react';
import { Button, Fieldset, Modal } from '@time-wallet/shared-ui';
import type { EditScope } from '../lib/task';
import styles from './series-scope-dialog.module.css';

const SCOPE_LABELS: readonly [EditScope, string][] = [
  ['this', 'This task'],
  ['following', 'This and following tasks'],
  ['all', 'All tasks'],
];

const WORDING = {
  edit: { title: 'Edit recurring task', legend: 'Save the changes to', confirm: 'Save' },
  delete: { title: 'Delete recurring task', legend: 'Delete', confirm: 'Delete' },
} as const;

/**
 * Which occurrences of a repeating task an edit or a delete is for, asked the calendar apps' way over the Edit Task
 * modal. `allowThis` is false for an edit that changes the repeat rule, which only a series edit can make.
 */
export function SeriesScopeDialog({
  action,
  allowThis = true,
  busy,
  onChoose,
  onCancel,
}: {
  action: 'edit' | 'delete';
  allowThis?: boolean;
  busy: boolean;
  onChoose: (scope: EditScope) => void;
  onCancel: () => void;
}) {
  const choices = SCOPE_LABELS.filter(([scope]) => allowThis || scope !== 'this');
  const [scope, setScope] = useState<EditScope>(choices[0][0]);
  const formId = useId();
  const wording = WORDING[action];
  // Leaving while the request runs would hide its outcome; the Edit Task modal underneath stays open meanwhile.
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
