/** How many formatters are kept: every app's distinct (locale, options) pairs, with room to spare. */
const KEPT = 32;
const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * The Intl.DateTimeFormat for a locale (undefined: the person's own) and options, built once and kept: building one
 * loads its locale's data, and Date's toLocaleDateString with options builds a new one on every call (a grid's title
 * drawn on each render was 109 ms of one task at 4x CPU). At most KEPT are kept; the oldest goes first.
 */
export function dateFormat(
  locale: string | undefined,
  options: Intl.DateTimeFormatOptions,
): Intl.DateTimeFormat {
  const key = `${locale ?? ''}|${JSON.stringify(options)}`;
  let format = formatters.get(key);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(locale, options);
    if (formatters.size >= KEPT) formatters.delete(formatters.keys().next().value!);
    formatters.set(key, format);
  }
  return format;
}

/** `date` as Date's toLocaleDateString(locale, options) writes it (options naming a date field), from a kept formatter. */
export function formatDate(
  date: Date | number,
  locale: string | undefined,
  options: Intl.DateTimeFormatOptions,
): string {
  return dateFormat(locale, options).format(date);
}
