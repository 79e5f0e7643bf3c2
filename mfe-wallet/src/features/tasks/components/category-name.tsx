import type { CSSProperties } from 'react';
import type { Category } from '@time-wallet/api';
import { categoryOf, NO_CATEGORY, UNKNOWN_CATEGORY, type Task } from '../lib/task';
import styles from './category-name.module.css';

/**
 * The task's category name in the category's colour; 'No category' when it has none, and 'Unknown Category' (SPEC)
 * when its id matches no tag (a deleted one).
 */
export function CategoryName({ task, categories }: { task: Task; categories: readonly Category[] }) {
  if (!task.categoryId) return <span className={styles.unknown}>{NO_CATEGORY}</span>;
  const category = categoryOf(task, categories);
  if (!category) return <span className={styles.unknown}>{UNKNOWN_CATEGORY}</span>;
  return (
    <span className={styles.category} style={{ '--category-color': category.color } as CSSProperties}>
      <span className={styles.swatch} aria-hidden="true" />
      {category.name}
    </span>
  );
}
