import toast from 'react-hot-toast';
import { isReminderMessage, type Reminder } from '../../sw/reminders';
import styles from './offline-banner.module.css';

/** The page side of the service worker: the offline banner and the toasts for what the worker tells the page. */
export const OFFLINE_BANNER_TEXT = 'Offline: showing what was last loaded';
export const NEEDS_CONNECTION_TEXT = "You're offline: this needs a connection";
const BANNER_ID = 'offline-banner';
// A reminder stays up longer than an ordinary toast: it is news, not feedback on a click.
const REMINDER_DURATION_MS = 10_000;

/**
 * While the browser is offline, a banner above the app says that what it shows is what was last loaded (the worker
 * answers from its caches only then). It goes when the browser is back online.
 */
export function showOfflineBanner(): void {
  if (navigator.onLine || document.getElementById(BANNER_ID)) return;
  const banner = document.createElement('div');
  banner.id = BANNER_ID;
  banner.setAttribute('role', 'status');
  banner.className = styles.banner;
  banner.textContent = OFFLINE_BANNER_TEXT;
  document.body.prepend(banner);
  window.addEventListener('online', () => banner.remove(), { once: true });
}

function ReminderToast({ reminder }: { reminder: Reminder }) {
  return (
    <div className={styles.reminder}>
      <strong>{reminder.title}</strong>
      {reminder.body && <span className={styles.reminderBody}>{reminder.body}</span>}
    </div>
  );
}

/** What the worker posts to a page: a reminder to show here (instead of a notification), or a refused action. */
export function showWorkerMessage(data: unknown): void {
  if (isReminderMessage(data)) {
    toast(<ReminderToast reminder={data.reminder} />, {
      id: `reminder:${data.reminder.tag}`,
      duration: REMINDER_DURATION_MS,
    });
  } else if ((data as { type?: unknown } | null)?.type === 'needs-connection') {
    // One toast however many requests an action sent.
    toast.error(NEEDS_CONNECTION_TEXT, { id: 'needs-connection' });
  }
}

/** The entry the shell calls: at start-up while offline (no event), on going offline, and on a worker's message. */
export function handle(event?: Event): void {
  if (event && 'data' in event) showWorkerMessage((event as MessageEvent).data);
  else showOfflineBanner();
}
