import type { ReactNode } from 'react';
import styles from './visually-hidden.module.css';

/** Text for screen readers only; kept in the page so assistive technology still reads it. */
export function VisuallyHidden({ children }: { children: ReactNode }) {
  return <span className={styles.visuallyHidden}>{children}</span>;
}
