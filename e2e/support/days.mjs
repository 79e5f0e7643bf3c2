// Local days as the browser sees them: it runs in the machine's zone, so seeded and asserted days use the same one.
export const TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The local day (YYYY-MM-DD) of an instant in the browser's zone. */
export function localDateKey(instant) {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(instant);
  const part = (type) => parts.find((entry) => entry.type === type).value;
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** A calendar day `days` after `day` (both YYYY-MM-DD). */
export function addDays(day, days) {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** 0 = Sunday .. 6 = Saturday. */
export const weekdayOf = (day) => new Date(`${day}T00:00:00Z`).getUTCDay();
