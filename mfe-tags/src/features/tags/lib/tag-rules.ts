import { DEFAULT_CATEGORY_COLOR } from '@time-wallet/api';
import { DEFAULT_PALETTE, normalizeColor } from './palette';

/** The server refuses longer names; saying so before sending spares a round trip and a vague failure. */
export const TAG_NAME_MAX_LENGTH = 40;

export const TAG_NAME_REQUIRED = 'Please enter a name for the tag.';
export const TAG_NAME_TOO_LONG = `The name must not exceed ${TAG_NAME_MAX_LENGTH} characters.`;

/** The message for a tag name that cannot be saved, or null; spaces around the name do not count. */
export function tagNameError(name: string): string | null {
  const trimmed = name.trim();
  if (trimmed.length === 0) return TAG_NAME_REQUIRED;
  if (trimmed.length > TAG_NAME_MAX_LENGTH) return TAG_NAME_TOO_LONG;
  return null;
}

/** A new tag starts with the first palette colour no tag uses yet, so tags stay apart at a glance. */
export function colourForNewTag(categories: readonly { color?: string | null }[]): string {
  const used = new Set(
    categories.flatMap((category) => (category.color ? [normalizeColor(category.color)] : [])),
  );
  return DEFAULT_PALETTE.find((color) => !used.has(color)) ?? DEFAULT_CATEGORY_COLOR;
}

/** A tag's colour in the spelling the swatches use; the default green when it has none. */
export function colourOfTag(color: string | null | undefined): string {
  return color?.trim() ? normalizeColor(color) : DEFAULT_CATEGORY_COLOR;
}
