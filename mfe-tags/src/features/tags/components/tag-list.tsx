import type { MouseEvent } from 'react';
import type { Category } from '@time-wallet/api';
import { IconButton } from '@time-wallet/shared-ui';
import { colourOfTag } from '../lib/tag-rules';
import { TagIcon } from './tag-icon';
import styles from './tag-list.module.css';

interface TagListProps {
  categories: Category[];
  onEdit: (category: Category) => void;
  /** Ids of the elements that explain how to edit a tag. */
  describedBy: string;
}

/**
 * Each tag as a button: a double click opens it for editing, and so do Enter and Space from the keyboard; the ✎
 * beside it opens it with one tap, for phones (a double tap zooms there) and anyone who did not read the hint.
 */
export function TagList({ categories, onEdit, describedBy }: TagListProps) {
  // A click from the keyboard has no mouse presses (detail 0); a single mouse click only focuses the tag.
  const openFromKeyboard = (category: Category) => (event: MouseEvent<HTMLButtonElement>) => {
    if (event.detail === 0) onEdit(category);
  };

  return (
    <ul className={styles.tags} aria-label="Tags">
      {categories.map((category) => (
        <li key={category._id} className={styles.item}>
          <button
            type="button"
            className={styles.tag}
            aria-describedby={describedBy}
            onClick={openFromKeyboard(category)}
            onDoubleClick={() => onEdit(category)}
            title={category.name}
          >
            <TagIcon color={colourOfTag(category.color)} />
            <span className={styles.name}>{category.name}</span>
          </button>
          <IconButton
            label={`Edit ${category.name}`}
            className={styles.edit}
            onClick={() => onEdit(category)}
          >
            ✎
          </IconButton>
        </li>
      ))}
    </ul>
  );
}
