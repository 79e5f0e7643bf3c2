import { pageText } from '@time-wallet/api/page-text';
import { useState } from 'react';
import { useGetCategoriesQuery, type Category } from '@time-wallet/api';
import { Button, EmptyState, Hint, LoadFailure, Page, Skeleton } from '@time-wallet/shared-ui';
import { swatchesFor } from '../lib/palette';
import { colourForNewTag } from '../lib/tag-rules';
import { CategoryModal } from './category-modal';
import { TagList } from './tag-list';
import styles from './tags-page.module.css';

/** The page's heading and subtitle, one fact in the registry (the shell prerenders them too). */
const TEXT = pageText('tags');

type Editing = { kind: 'add' } | { kind: 'edit'; category: Category } | null;

export function TagsPage() {
  const { data: categories = [], isLoading, isError, refetch } = useGetCategoriesQuery();
  const [editing, setEditing] = useState<Editing>(null);
  const swatches = swatchesFor(categories);

  return (
    <Page
      titleId="tags-page-title"
      title={TEXT.heading}
      subtitleId="tags-page-hint"
      subtitle={TEXT.subtitle}
      actions={<Button onClick={() => setEditing({ kind: 'add' })}>Add Tag</Button>}
      hints={<Hint id="tags-page-keyboard-hint">Or tap ✎ beside a tag, or press Enter on it.</Hint>}
    >
      {isLoading ? (
        <div className={styles.loading} aria-busy="true">
          <span className="visually-hidden">Loading your tags</span>
          {[0, 1, 2, 3].map((row) => (
            <Skeleton key={row} height="3.25rem" radius="var(--radius-lg)" />
          ))}
        </div>
      ) : isError && categories.length === 0 ? (
        <LoadFailure onRetry={() => void refetch()}>Your tags could not be loaded.</LoadFailure>
      ) : categories.length === 0 ? (
        <EmptyState>No tags yet. Add one to give your tasks a name and a colour.</EmptyState>
      ) : (
        <TagList
          categories={categories}
          onEdit={(category) => setEditing({ kind: 'edit', category })}
          describedBy="tags-page-hint tags-page-keyboard-hint"
        />
      )}

      {editing && (
        <CategoryModal
          key={editing.kind === 'edit' ? editing.category._id : 'new'}
          category={editing.kind === 'edit' ? editing.category : undefined}
          swatches={swatches}
          newTagColor={colourForNewTag(categories)}
          onClose={() => setEditing(null)}
        />
      )}
    </Page>
  );
}
