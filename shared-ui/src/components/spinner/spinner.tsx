import type { CSSProperties } from 'react';
import { VisuallyHidden } from '../visually-hidden/visually-hidden';
import styles from './spinner.module.css';

export interface SpinnerProps {
  /** What is loading, read by screen readers. */
  label?: string;
  /** Diameter as a CSS length. */
  size?: string;
  className?: string;
}

export function Spinner({ label = 'Loading', size = '2rem', className }: SpinnerProps) {
  const style = { '--spinner-size': size } as CSSProperties;
  return (
    <span role="status" className={[styles.spinner, className].filter(Boolean).join(' ')} style={style}>
      <span className={styles.ring} aria-hidden="true" />
      <VisuallyHidden>{label}</VisuallyHidden>
    </span>
  );
}
