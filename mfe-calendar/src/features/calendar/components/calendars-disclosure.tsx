import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { Button, IconButton } from '@time-wallet/shared-ui';
import { AddCalendarForm } from './add-calendar-form';
import { CalendarFeed } from './calendar-feed';
import { CalendarList } from './calendar-list';
import styles from './calendars-panel.module.css';

/**
 * "Calendars": a button that shows the person's calendars, where subscriptions are added, switched, refreshed and
 * removed and the own calendar is published. On wide screens the panel lies over the grid's corner, so opening it
 * moves nothing; on phones it is a section of the page above the grid. Escape or × closes it, back to the button.
 */
export function CalendarsDisclosure() {
  const [open, setOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const panelId = useId();
  const headingId = useId();

  const close = () => {
    setOpen(false);
    toggleRef.current?.focus();
  };
  const closeOnEscape = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Escape' || event.defaultPrevented) return;
    event.preventDefault();
    close();
  };

  return (
    // Escape from anywhere in it closes the panel (a div of no role: the keys belong to the controls inside).
    <div role="presentation" className={styles.disclosure} onKeyDown={open ? closeOnEscape : undefined}>
      <Button
        ref={toggleRef}
        variant="secondary"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen((shown) => !shown)}
      >
        <span aria-hidden="true" className={styles.toggleGlyph}>
          {open ? '▾' : '▸'}
        </span>
        Calendars
      </Button>
      {open && (
        <section id={panelId} className={styles.panel} aria-labelledby={headingId}>
          <div className={styles.panelHeader}>
            <h2 id={headingId} ref={headingRef} tabIndex={-1} className={styles.heading}>
              Calendars
            </h2>
            <IconButton label="Close calendars" onClick={close}>
              ×
            </IconButton>
          </div>
          {/* A removed row takes its focus with it: the panel's heading gets it, inside the panel still. */}
          <CalendarList onRemoved={() => headingRef.current?.focus()} />
          <AddCalendarForm />
          <CalendarFeed />
        </section>
      )}
    </div>
  );
}
