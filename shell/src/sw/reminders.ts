/** A reminder as the push server sends it (issue 32): what it is about, its words, the page it opens, its tag. */
export interface Reminder {
  kind: string;
  title: string;
  body: string;
  url: string;
  tag: string;
}

/** What the worker posts to an open, focused page instead of showing a notification. */
export interface ReminderMessage {
  type: 'reminder';
  reminder: Reminder;
}

// A notification's text is short; anything longer is cut rather than refused.
const MAX_TEXT = 300;
const DEFAULT_PAGE = '/app/today';

const text = (value: unknown, fallback = '') =>
  typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, MAX_TEXT) : fallback;

/** The reminder a push payload carries, or null for one without a title (nothing worth showing). */
export function notificationOf(payload: unknown): Reminder | null {
  if (typeof payload !== 'object' || payload === null) return null;
  const { kind, title, body, url, tag } = payload as Record<string, unknown>;
  const shownTitle = text(title);
  if (shownTitle === '') return null;
  return {
    kind: text(kind, 'reminder'),
    title: shownTitle,
    body: text(body),
    url: text(url, DEFAULT_PAGE),
    tag: text(tag, shownTitle),
  };
}

export const reminderMessage = (reminder: Reminder): ReminderMessage => ({ type: 'reminder', reminder });

/** Whether a page's message from the worker is a reminder to show. */
export function isReminderMessage(data: unknown): data is ReminderMessage {
  const message = data as Partial<ReminderMessage> | null;
  return message?.type === 'reminder' && notificationOf(message.reminder) !== null;
}

/**
 * The page a notification click opens: the reminder's URL when it is one of the app's own (a path, or a URL on the
 * shell's origin), else Today. A push payload never sends the person to another site.
 */
export function targetUrlOf(url: unknown, shellOrigin: string): string {
  try {
    const target = new URL(typeof url === 'string' ? url : DEFAULT_PAGE, shellOrigin);
    if (target.origin === shellOrigin) return target.href;
  } catch {
    // Not a URL: Today.
  }
  return new URL(DEFAULT_PAGE, shellOrigin).href;
}
