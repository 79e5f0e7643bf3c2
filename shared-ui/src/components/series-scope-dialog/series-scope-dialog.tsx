import { useId, useState, type FormEvent } from 'react';
import { Button } from '../button/button';
import { Fieldset } from '../fieldset/fieldset';
import { Modal } from '../modal/modal';
import styles from './series-scope-dialog.module.css';

/**
 * Which occurrences of a series a change is for, as the server's `scope` names them. shared-ui sits below the api
 * package and cannot import the generated API types, so it names the three values it words here; each caller's
 * `onChoose` takes its generated scope type, which therefore must hold all three, or the caller fails its typecheck.
 */
export type SeriesScopeChoice = 'this' | 'following' | 'all';

/** What is asked: saving a form, deleting, or moving or resizing a block on a grid. */
export type SeriesScopeAction = 'edit' | 'move' | 'delete';

export type SeriesItem = 'event' | 'task';

export interface SeriesScopeDialogProps {
  action: SeriesScopeAction;
  /** What repeats: the questions say 'This event' or 'This task'. */
  item: SeriesItem;
  /** False for an edit that changes the repeat rule, which only a series edit can make. */
  allowThis?: boolean;
  /** The request runs: the confirm button shows it, and nothing cancels until it ends. */
  busy: boolean;
  onChoose: (scope: SeriesScopeChoice) => void;
  onCancel: () => void;
}

const SCOPES: readonly SeriesScopeChoice[] = ['this', 'following', 'all'];

const LABELS: Readonly<Record<SeriesItem, Readonly<Record<SeriesScopeChoice, string>>>> = {
  event: { this: 'This event', following: 'This and following events', all: 'All events' },
  task: { this: 'This task', following: 'This and following tasks', all: 'All tasks' },
};

const WORDING: Readonly<Record<SeriesScopeAction, { verb: string; legend: string; confirm: string }>> = {
  edit: { verb: 'Edit', legend: 'Save the changes to', confirm: 'Save' },
  move: { verb: 'Edit', legend: 'Move', confirm: 'Save' },
  delete: { verb: 'Delete', legend: 'Delete', confirm: 'Delete' },
};

/**
 * Which occurrences of a repeating event or task an edit, a move or a delete is for, asked the calendar apps' way:
 * a radio group (the first choice focused, arrow keys move between the choices), Enter or the confirm button to go
 * on, Escape or Cancel to go back. Render it beside a modal it opens over, not inside it, so the modal's key and
 * click handlers do not see its events; Escape closes this dialog alone and the modal underneath stays open.
 */
export function SeriesScopeDialog({
  action,
  item,
  allowThis = true,
  busy,
  onChoose,
  onCancel,
}: SeriesScopeDialogProps) {
  const choices = SCOPES.filter((scope) => allowThis || scope !== 'this');
  const [scope, setScope] = useState<SeriesScopeChoice>(choices[0]);
  const formId = useId();
  const wording = WORDING[action];
  const title = `${wording.verb} recurring ${item}`;
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
      title={title}
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
      <form id={formId} onSubmit={choose} aria-label={title} noValidate>
        <Fieldset legend={wording.legend} bodyClassName={styles.choices}>
          {choices.map((value) => (
            <label key={value} className={styles.choice}>
              <input
                type="radio"
                name={`${formId}-scope`}
                value={value}
                checked={scope === value}
                onChange={() => setScope(value)}
              />
              {LABELS[item][value]}
            </label>
          ))}
        </Fieldset>
      </form>
    </Modal>
  );
}
