import type { ReactNode } from 'react';
import styles from './notes.module.css';

/** What a list shows when it has nothing: a quiet dashed box with a line of text (and, optionally, an action). */
export function EmptyState({ children }: { children: ReactNode }) {
  return <p className={styles.empty}>{children}</p>;
}

/** A secondary line of muted small text under a heading or a list (a keyboard hint, a note). */
export function Hint({ id, children }: { id?: string; children: ReactNode }) {
  return (
    <p id={id} className={styles.hint}>
      {children}
    </p>
  );
}
