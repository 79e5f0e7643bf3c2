import toast from 'react-hot-toast';
import { useStartTimerMutation, useStopTimerMutation } from '@time-wallet/api';
import { IconButton, VisuallyHidden } from '@time-wallet/shared-ui';
import { formatStopwatch } from '../../../lib/duration';
import { useDayEntries } from '../hooks/use-day-entries';
import { useNow } from '../hooks/use-now';
import { isTimerRunning, trackedSecondsAt } from '../lib/timer';
import type { Task } from '../lib/task';
import styles from './timer-control.module.css';

export const AUTO_STOPPED_NOTE = 'Timer stopped itself after 12 h';

/**
 * A task's timer: a start/stop toggle and the time tracked, from the day's entries to the second, ticking every second
 * while it runs. The server runs one timer per person and stops the other one, and records a run to the second; the
 * lists and the entries refetch after each change, so a stop at 1:04 reads 1:04.
 */
export function TimerControl({ task, day }: { task: Task; day: string }) {
  const running = isTimerRunning(task);
  const now = useNow(running);
  const entries = useDayEntries(day);
  const [startTimer, starting] = useStartTimerMutation();
  const [stopTimer, stopping] = useStopTimerMutation();
  const busy = starting.isLoading || stopping.isLoading;
  const tracked = formatStopwatch(trackedSecondsAt(task, entries, now));

  const toggle = async () => {
    const result = running ? await stopTimer(task._id) : await startTimer(task._id);
    // The timer's calls refresh the entries themselves (TASK_CHANGES includes them).
    if (result.error) toast.error(running ? 'Failed to stop the timer.' : 'Failed to start the timer.');
  };

  return (
    <span className={styles.timer}>
      <IconButton
        label={`${running ? 'Stop' : 'Start'} timer for ${task.title}`}
        title={running ? 'Stop timer' : 'Start timer'}
        className={running ? `${styles.toggle} ${styles.running}` : styles.toggle}
        aria-pressed={running}
        aria-busy={busy || undefined}
        disabled={busy}
        onClick={() => void toggle()}
      >
        <span aria-hidden="true">{running ? '■' : '▶'}</span>
      </IconButton>
      <span className={styles.tracked}>
        <VisuallyHidden>Tracked </VisuallyHidden>
        {tracked}
      </span>
    </span>
  );
}

/** Said on the task whose timer ran 12 hours and stopped itself, until its next start or correction. */
export function AutoStoppedNote({ task }: { task: Task }) {
  return task.timerAutoStopped ? <span className={styles.autoStopped}>{AUTO_STOPPED_NOTE}</span> : null;
}
