import type { ComponentPropsWithRef } from 'react';
import styles from './icon-button.module.css';

export interface IconButtonProps extends Omit<ComponentPropsWithRef<'button'>, 'aria-label'> {
  /** The accessible name; the visible content is only an icon or glyph. */
  label: string;
}

export function IconButton({ label, type = 'button', className, children, ...buttonProps }: IconButtonProps) {
  return (
    <button
      {...buttonProps}
      type={type}
      aria-label={label}
      title={buttonProps.title ?? label}
      className={[styles.iconButton, className].filter(Boolean).join(' ')}
    >
      {children}
    </button>
  );
}
