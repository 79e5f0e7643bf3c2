import type { ComponentPropsWithRef, ReactNode } from 'react';
import styles from './button.module.css';

export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'ghost';

export interface ButtonProps extends ComponentPropsWithRef<'button'> {
  variant?: ButtonVariant;
  /** Work in progress: the button is disabled and marked aria-busy. */
  busy?: boolean;
  /** Text shown instead of the children while busy, e.g. 'Signing in...'. */
  busyLabel?: ReactNode;
}

/**
 * A native button in one of the product's variants. `type` defaults to "button" so a Cancel inside a form
 * never submits it by accident; pass type="submit" for the submit button.
 */
export function Button({
  variant = 'primary',
  busy = false,
  busyLabel,
  disabled,
  type = 'button',
  className,
  children,
  ...buttonProps
}: ButtonProps) {
  return (
    <button
      {...buttonProps}
      type={type}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
      className={[styles.button, styles[variant], className].filter(Boolean).join(' ')}
    >
      {busy && <span className={styles.busyIndicator} aria-hidden="true" />}
      {busy && busyLabel !== undefined ? busyLabel : children}
    </button>
  );
}
