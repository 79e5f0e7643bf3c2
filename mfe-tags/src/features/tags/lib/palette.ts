import { DEFAULT_CATEGORY_COLOR } from '@time-wallet/api';

/** Tag colours offered when adding a tag; each is >= 3:1 against both the light and dark surfaces. */
export const DEFAULT_PALETTE: readonly string[] = [
  DEFAULT_CATEGORY_COLOR,
  '#2F80ED',
  '#7C6AE6',
  '#D9468F',
  '#E0533D',
  '#D97706',
  '#B58900',
  '#5E9E2B',
  '#0E8FB0',
  '#6D8A96',
];

const HEX_COLOR = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;

/** One spelling per colour so '#2d967c', '#2D967C' and '#2d9' compare equal when they are the same colour. */
export function normalizeColor(color: string): string {
  const trimmed = color.trim();
  const hex = HEX_COLOR.exec(trimmed)?.[1];
  if (!hex) return trimmed.toLowerCase();
  const sixDigits = hex.length === 3 ? [...hex].map((digit) => digit + digit).join('') : hex;
  return `#${sixDigits.toUpperCase()}`;
}

/** The colours existing tags already use (first use first), then the palette colours not among them. */
export function swatchesFor(categories: readonly { color?: string | null }[]): string[] {
  const swatches = new Set<string>();
  for (const category of categories) {
    if (category.color?.trim()) swatches.add(normalizeColor(category.color));
  }
  for (const color of DEFAULT_PALETTE) swatches.add(color);
  return [...swatches];
}
