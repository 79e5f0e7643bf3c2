import type { ReactNode } from 'react';
import styles from './category-label.module.css';

/** A category's colour swatch and name (cut short with an ellipsis), then its figure, on one line. */
export function CategoryLabel({
  name,
  color,
  children,
}: {
  name: string;
  color: string;
  children: ReactNode;
}) {
  return (
    <span className={styles.label}>
      <span className={styles.swatch} style={{ background: color }} aria-hidden="true" />
      <span className={styles.name}>{name}</span>
      {children}
    </span>
  );
}
