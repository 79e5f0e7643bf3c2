import type { ReactNode } from 'react';
import styles from './notifications-card.module.css';

interface SettingSwitchProps {
  checked: boolean;
  onChange: (checked: boolean) => void;
  children: ReactNode;
}

/**
 * An on/off setting that applies at once: a native checkbox (Space toggles it, a click on its words too) announced as
 * a switch. On and off differ by the thumb's side and a check mark, not by colour alone.
 */
export function SettingSwitch({ checked, onChange, children }: SettingSwitchProps) {
  return (
    <label className={styles.switch}>
      <input
        type="checkbox"
        role="switch"
        className={styles.switchInput}
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
      />
      <span className={styles.track} aria-hidden="true">
        <span className={styles.thumb}>{checked ? '✓' : ''}</span>
      </span>
      <span>{children}</span>
    </label>
  );
}
