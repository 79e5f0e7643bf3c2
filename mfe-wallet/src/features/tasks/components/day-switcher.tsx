import { memo, useState } from 'react';
import { Button, IconButton, VisuallyHidden } from '@time-wallet/shared-ui';
import { FIRST_DAY, isDayKey, LAST_DAY } from '../lib/day';
import styles from './day-switcher.module.css';

export interface DaySwitcherProps {
  day: string;
  isToday: boolean;
  onShowDay: (day: string) => void;
  onShowDayAfter: (days: number) => void;
  onShowToday: () => void;
}

/** Previous day, a date picker, next day, and a way back to today when another day is shown. */
export const DaySwitcher = memo(function DaySwitcher({
  day,
  isToday,
  onShowDay,
  onShowDayAfter,
  onShowToday,
}: DaySwitcherProps) {
  // What the date input holds: a day being typed ('0002-…' on the way to 2026) is not shown until it is a whole day.
  const [typed, setTyped] = useState(day);
  const [typedFor, setTypedFor] = useState(day);
  if (typedFor !== day) {
    setTypedFor(day);
    setTyped(day);
  }

  return (
    <div className={styles.switcher} role="group" aria-label="Day shown">
      <IconButton label="Previous day" className={styles.step} onClick={() => onShowDayAfter(-1)}>
        ‹
      </IconButton>
      <label className={styles.date}>
        <VisuallyHidden>Day</VisuallyHidden>
        <input
          type="date"
          className={styles.input}
          value={typed}
          min={FIRST_DAY}
          max={LAST_DAY}
          required
          onChange={(event) => {
            setTyped(event.target.value);
            if (isDayKey(event.target.value) && event.target.value !== day) onShowDay(event.target.value);
          }}
        />
      </label>
      <IconButton label="Next day" className={styles.step} onClick={() => onShowDayAfter(1)}>
        ›
      </IconButton>
      {/* Kept in the layout while hidden, so the controls never move when it comes and goes. */}
      <Button
        variant="secondary"
        className={isToday ? `${styles.today} ${styles.hidden}` : styles.today}
        aria-hidden={isToday || undefined}
        disabled={isToday}
        onClick={onShowToday}
      >
        Today
      </Button>
    </div>
  );
});
