import toast from 'react-hot-toast';
import { Button } from '@time-wallet/shared-ui';
import { serverMessageOf, type ApiError } from './api-errors';

/** How long the toast after a delete offers "Undo" (the server keeps the record far longer: an hour). */
export const UNDO_WINDOW_MS = 6000;

export interface UndoableDelete {
  /** Said at once: "Task deleted". */
  message: string;
  /** Puts the record back (POST /{kind}/{id}/restore); resolves with the call's error when it failed. */
  undo: () => Promise<{ error?: ApiError }>;
  /** Said when the record is back: "Task restored". */
  restoredMessage: string;
}

/**
 * The one pattern after every delete (tasks, events, tags): the record is gone at once, and the toast offers "Undo"
 * for a few seconds, which brings it back whole, with its id. Keyboard users reach the button with Tab: toasts sit
 * in a polite live region, so the message is announced without taking focus.
 */
export function toastUndoableDelete({ message, undo, restoredMessage }: UndoableDelete): void {
  toast(
    (shown) => (
      <span style={{ display: 'inline-flex', alignItems: 'center', gap: '0.75rem', flexWrap: 'wrap' }}>
        {message}
        <Button
          variant="secondary"
          onClick={async () => {
            toast.dismiss(shown.id);
            const result = await undo();
            if (result.error) toast.error(serverMessageOf(result.error, 'The delete could not be undone.'));
            else toast.success(restoredMessage);
          }}
        >
          Undo
        </Button>
      </span>
    ),
    { duration: UNDO_WINDOW_MS },
  );
}
