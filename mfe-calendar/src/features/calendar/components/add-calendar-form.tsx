import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { fieldErrorsOf, isNetworkError, useFieldErrors } from '@time-wallet/api';
import { useAddCalendarMutation } from '../api/calendars-api';
import { Button, Field } from '@time-wallet/shared-ui';
import { eventCountText } from '../lib/calendars';
import styles from './calendars-panel.module.css';

const SUBSCRIPTION_FIELDS = ['url', 'name'] as const;
/** The server's own limit on a calendar's name. */
const NAME_MAX_LENGTH = 100;
const URL_REQUIRED = "Enter the calendar's address";
const ADD_FAILED = 'The calendar could not be added. Try again in a moment.';
const OFFLINE = 'The server cannot be reached. Check your connection and try again.';

/**
 * "Add calendar by URL": the server fetches and reads the address before keeping it, so a wrong one is refused at
 * once with the reason under the URL field, where focus goes so the person can correct it.
 */
export function AddCalendarForm() {
  const headingId = useId();
  const urlRef = useRef<HTMLInputElement>(null);
  const [url, setUrl] = useState('');
  const [name, setName] = useState('');
  const [formMessage, setFormMessage] = useState<string | null>(null);
  // Bumped to move focus to the URL field once the render that shows its message is on screen.
  const [urlProblem, setUrlProblem] = useState(0);
  const { errors, setErrors, clearError } = useFieldErrors(SUBSCRIPTION_FIELDS);
  const [addCalendar, addState] = useAddCalendarMutation();

  useEffect(() => {
    if (urlProblem > 0) urlRef.current?.focus();
  }, [urlProblem]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFormMessage(null);
    if (!url.trim()) {
      setErrors({ url: URL_REQUIRED });
      setUrlProblem((count) => count + 1);
      return;
    }
    const result = await addCalendar({ url: url.trim(), ...(name.trim() ? { name: name.trim() } : {}) });
    if (result.data) {
      toast.success(`Added "${result.data.name}": ${eventCountText(result.data.eventCount)}`);
      setUrl('');
      setName('');
      setErrors({});
      return;
    }
    // A refused address is said under its field (the server's message says the same); anything else (the limit
    // of subscriptions, a busy server) under the form.
    const { fieldErrors, message } = fieldErrorsOf(result.error, SUBSCRIPTION_FIELDS);
    setErrors(fieldErrors);
    if (fieldErrors.url) setUrlProblem((count) => count + 1);
    else if (!fieldErrors.name)
      setFormMessage(isNetworkError(result.error) ? OFFLINE : (message ?? ADD_FAILED));
  };

  return (
    <form className={styles.addForm} aria-labelledby={headingId} onSubmit={submit} noValidate>
      <h3 id={headingId} className={styles.subheading}>
        Add calendar by URL
      </h3>
      <Field
        ref={urlRef}
        label="Calendar address (URL)"
        type="url"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        placeholder="https://… or webcal://…"
        value={url}
        error={errors.url}
        onChange={(event: { target: { value: string } }) => {
          setUrl(event.target.value);
          clearError('url');
        }}
      />
      <Field
        label="Name (optional)"
        maxLength={NAME_MAX_LENGTH}
        value={name}
        error={errors.name}
        onChange={(event: { target: { value: string } }) => {
          setName(event.target.value);
          clearError('name');
        }}
      />
      <div className={styles.formActions}>
        <Button type="submit" busy={addState.isLoading} busyLabel="Adding...">
          Add
        </Button>
      </div>
      {formMessage && (
        <p role="alert" className={styles.formError}>
          {formMessage}
        </p>
      )}
    </form>
  );
}
