import type { ComponentPropsWithRef, ReactNode } from 'react';
import styles from './switch.module.css';

export interface SwitchProps extends Omit<
  ComponentPropsWithRef<'button'>,
  'onChange' | 'role' | 'aria-checked' | 'children'
> {
  checked: boolean;
  /** Called with the state asked for; the owner decides whether it changes. */
  onChange: (checked: boolean) => void;
  /** The visible name, read with the switch's state ("Counts in budget, on"). */
  label: ReactNode;
}

/**
 * An on/off setting that applies at once: a button with role="switch" (Space and Enter toggle it), its label inside
 * it so a click on the words toggles it too. On and off differ by the thumb's side and a check mark, not colour alone.
 */
export function Switch({
  checked,
  onChange,
  label,
  className,
  type = 'button',
  ...buttonProps
}: SwitchProps) {
  return (
    <button
      {...buttonProps}
      type={type}
      role="switch"
      aria-checked={checked}
      className={[styles.switch, className].filter(Boolean).join(' ')}
      onClick={(event) => {
        buttonProps.onClick?.(event);
        if (!event.defaultPrevented) onChange(!checked);
      }}
    >
      <span className={styles.track} aria-hidden="true">
        <span className={styles.thumb}>{checked ? '✓' : ''}</span>
      </span>
      <span className={styles.label}>{label}</span>
    </button>
  );
}
