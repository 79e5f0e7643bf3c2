/** How this server marks its own events in iCalendar text, read back by the importer and written by the exporter. */

/** An all-day event that does not span whole local days is exported with UTC times and this flag. */
export const ALL_DAY_FLAG = 'x-time-wallet-all-day';
/** The UID of an event made here (not imported) is '<id>@time-wallet'. */
export const OWN_UID_SUFFIX = '@time-wallet';
/**
 * The UID of a task in the calendar feed is '<id>@tasks.time-wallet': a suffix of its own, so a feed imported back is
 * never read as this server's own events (ownEventIdOf), and a task and an event with the same id never collide.
 */
export const TASK_UID_SUFFIX = '@tasks.time-wallet';

/** The id of this server's own event when a UID came from its export ('<id>@time-wallet'). */
export function ownEventIdOf(key: string): string | null {
  const [uid, recurrence] = key.split('#');
  if (recurrence || !uid?.endsWith(OWN_UID_SUFFIX)) return null;
  return uid.slice(0, -OWN_UID_SUFFIX.length) || null;
}
