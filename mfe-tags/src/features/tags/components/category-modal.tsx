import { useId, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { type ApiError, type Category, toastUndoableDelete, useFieldErrors } from '@time-wallet/api';
import { Button, Field, Modal } from '@time-wallet/shared-ui';
import {
  useAddCategoryMutation,
  useDeleteCategoryMutation,
  useRestoreCategoryMutation,
  useUpdateCategoryMutation,
} from '../api/categories-api';
import { colourOfTag, TAG_NAME_MAX_LENGTH, TAG_NAME_TOO_LONG, tagNameError } from '../lib/tag-rules';
import { SwatchPicker } from './swatch-picker';
import styles from './category-modal.module.css';

const TAG_FIELDS = ['name'] as const;

interface CategoryModalProps {
  /** The tag to edit; without one the modal adds a new tag. */
  category?: Category;
  swatches: string[];
  /** The colour a new tag starts with. */
  newTagColor: string;
  onClose: () => void;
}

/** 'Add New Category' or 'Edit Category': a name and a colour; editing can also delete (undone from the toast). */
export function CategoryModal({ category, swatches, newTagColor, onClose }: CategoryModalProps) {
  const formId = useId();
  const [name, setName] = useState(category?.name ?? '');
  const [color, setColor] = useState(category ? colourOfTag(category.color) : newTagColor);
  const [nameError, setNameError] = useState<string | null>(null);
  const { errors: serverErrors, clearError, showServerErrors } = useFieldErrors(TAG_FIELDS);
  const [saveAttempted, setSaveAttempted] = useState(false);
  const [addCategory, adding] = useAddCategoryMutation();
  const [updateCategory, updating] = useUpdateCategoryMutation();
  const [deleteCategory, deleting] = useDeleteCategoryMutation();
  const [restoreCategory] = useRestoreCategoryMutation();
  const busy = adding.isLoading || updating.isLoading || deleting.isLoading;
  // Whatever the tag's colour, it is offered, even one no palette has.
  const offered = swatches.includes(color) ? swatches : [color, ...swatches];

  const closeUnlessBusy = () => {
    if (!busy) onClose();
  };

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const error = tagNameError(name);
    setNameError(error);
    setSaveAttempted(true);
    if (error) return;
    const draft = { name: name.trim(), color };
    if (category) {
      try {
        await updateCategory({ id: category._id, ...draft }).unwrap();
        onClose();
      } catch (error) {
        showServerErrors(error as ApiError);
        toast.error('Failed to update category.');
      }
      return;
    }
    try {
      await addCategory(draft).unwrap();
      toast.success('Category added successfully!');
      onClose();
    } catch (error) {
      showServerErrors(error as ApiError);
      toast.error('Failed to add category.');
    }
  };

  const remove = async () => {
    if (!category) return;
    try {
      await deleteCategory(category._id).unwrap();
      onClose();
      toastUndoableDelete({
        message: `Tag "${category.name}" deleted`,
        undo: () => restoreCategory(category._id),
        restoredMessage: 'Tag restored',
      });
    } catch {
      toast.error('Failed to delete category.');
    }
  };

  return (
    <Modal
      open
      title={category ? 'Edit Category' : 'Add New Category'}
      onClose={closeUnlessBusy}
      width="26rem"
      footer={
        <>
          {category && (
            <Button
              variant="danger"
              className={styles.delete}
              onClick={() => void remove()}
              disabled={busy}
              busy={deleting.isLoading}
              busyLabel="Deleting..."
            >
              Delete
            </Button>
          )}
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button
            type="submit"
            form={formId}
            busy={adding.isLoading || updating.isLoading}
            busyLabel={category ? 'Saving...' : 'Adding...'}
          >
            {category ? 'Save' : 'Add Category'}
          </Button>
        </>
      }
    >
      <form id={formId} className={styles.form} onSubmit={(event) => void save(event)} noValidate>
        <Field
          label="Name"
          placeholder="Category Name"
          value={name}
          onChange={(event) => {
            setName(event.target.value);
            clearError('name');
            // A name too long is said at once; a missing one only after trying to save.
            const error = tagNameError(event.target.value);
            setNameError(saveAttempted || error === TAG_NAME_TOO_LONG ? error : null);
          }}
          error={nameError ?? serverErrors.name}
          hint={`Up to ${TAG_NAME_MAX_LENGTH} characters`}
          autoComplete="off"
          disabled={busy}
        />
        <SwatchPicker swatches={offered} value={color} onChange={setColor} disabled={busy} />
      </form>
    </Modal>
  );
}
