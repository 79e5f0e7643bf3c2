import { useId, useState } from 'react';
import toast from 'react-hot-toast';
import { isNetworkError, serverMessageOf } from '@time-wallet/api';
import { LoadFailure, Skeleton } from '@time-wallet/shared-ui';
import {
  useGetNotificationSettingsQuery,
  useUpdateNotificationSettingsMutation,
  type NotificationSettingsChange,
} from '../../../lib/notifications-api';
import { SettingSwitch } from './setting-switch';
import styles from './notifications-card.module.css';

/** The lead times offered for an event's reminder, in minutes; a value set elsewhere is offered too. */
const LEAD_TIMES = [5, 10, 15, 30, 60];
const OFF = 'off';
/** The nudge's time when it is first turned on. */
const DEFAULT_PLAN_DAY_AT = '08:00';
const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;

const minutesText = (minutes: number) =>
  minutes === 0 ? 'When it starts' : `${minutes} minute${minutes === 1 ? '' : 's'} before`;

/** The nudge's time: kept here while typed, saved once it is a whole time and the field is left. */
function PlanDayTime({ value, onSave }: { value: string; onSave: (time: string) => void }) {
  const id = useId();
  const [draft, setDraft] = useState<string | null>(null);
  const save = () => {
    if (draft !== null && HH_MM.test(draft) && draft !== value) onSave(draft);
    setDraft(null);
  };
  return (
    <div className={styles.timeField}>
      <label htmlFor={id}>Nudge at</label>
      <input
        id={id}
        type="time"
        className={styles.control}
        value={draft ?? value}
        required
        onChange={(event) => setDraft(event.target.value)}
        onBlur={save}
        onKeyDown={(event) => {
          if (event.key === 'Enter') save();
        }}
      />
    </div>
  );
}

/** Which reminders the person gets; each change is saved at once, and put back with a toast if the save fails. */
export function ReminderSettings() {
  const selectId = useId();
  const { data: settings, isLoading, isError, refetch } = useGetNotificationSettingsQuery();
  const [update] = useUpdateNotificationSettingsMutation();

  async function save(change: NotificationSettingsChange) {
    const result = await update(change);
    if ('error' in result)
      toast.error(
        isNetworkError(result.error)
          ? 'Network error: the setting was not saved. Please check your connection and try again.'
          : serverMessageOf(result.error, 'The setting could not be saved. Please try again.'),
      );
  }

  if (isLoading)
    return (
      <div className={styles.loading} aria-busy="true">
        <span className="visually-hidden">Loading your reminder settings</span>
        <Skeleton height="2.5rem" radius="var(--radius-md)" />
        <Skeleton height="2.5rem" radius="var(--radius-md)" />
      </div>
    );
  if (!settings || isError)
    return (
      <LoadFailure onRetry={() => void refetch()}>Your reminder settings could not be loaded.</LoadFailure>
    );

  const minutes = settings.eventReminderMinutes;
  const leadTimes = minutes === null || LEAD_TIMES.includes(minutes) ? LEAD_TIMES : [...LEAD_TIMES, minutes];

  return (
    <div className={styles.settings}>
      <div className={styles.selectField}>
        <label htmlFor={selectId}>Event reminders</label>
        <select
          id={selectId}
          className={styles.control}
          value={minutes === null ? OFF : String(minutes)}
          onChange={(event) =>
            void save({
              eventReminderMinutes: event.target.value === OFF ? null : Number(event.target.value),
            })
          }
        >
          <option value={OFF}>Off</option>
          {[...leadTimes]
            .sort((a, b) => a - b)
            .map((lead) => (
              <option key={lead} value={String(lead)}>
                {minutesText(lead)}
              </option>
            ))}
        </select>
      </div>
      <SettingSwitch checked={settings.taskStart} onChange={(taskStart) => void save({ taskStart })}>
        When a task starts
      </SettingSwitch>
      <SettingSwitch checked={settings.timerAlerts} onChange={(timerAlerts) => void save({ timerAlerts })}>
        When a timer runs past its block or hits the 12-hour stop
      </SettingSwitch>
      <div className={styles.planDay}>
        <SettingSwitch
          checked={settings.planDayAt !== null}
          onChange={(on) => void save({ planDayAt: on ? DEFAULT_PLAN_DAY_AT : null })}
        >
          Plan-your-day nudge
        </SettingSwitch>
        {settings.planDayAt !== null && (
          <PlanDayTime value={settings.planDayAt} onSave={(planDayAt) => void save({ planDayAt })} />
        )}
      </div>
    </div>
  );
}
