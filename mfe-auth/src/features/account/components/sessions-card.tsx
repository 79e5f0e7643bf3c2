import { useId, useRef } from 'react';
import { Card, EmptyState, Hint, LoadFailure, Skeleton } from '@time-wallet/shared-ui';
import { useGetSessionsQuery } from '../api/sessions-api';
import { SessionItem } from './session-item';
import { SignOutEverywhere } from './sign-out-everywhere';
import styles from './sessions-card.module.css';

const SKELETON_ROWS = [0, 1];

/** "Where you're signed in": every session of the account, this device's marked, each other one can be ended. */
export function SessionsCard() {
  const titleId = useId();
  const titleRef = useRef<HTMLSpanElement>(null);
  const {
    data: sessions = [],
    isLoading,
    isError,
    isFetching,
    fulfilledTimeStamp,
    refetch,
  } = useGetSessionsQuery();
  const now = fulfilledTimeStamp ?? 0;
  const onlyThisDevice = sessions.length === 1 && sessions[0]!.current;

  return (
    <Card
      as="section"
      headingLevel={2}
      title={
        <span id={titleId} ref={titleRef} tabIndex={-1} className={styles.title}>
          Where you&rsquo;re signed in
        </span>
      }
      aria-labelledby={titleId}
    >
      <p className={styles.intro}>
        Sign out of a device you no longer use or do not recognise. Changing your password signs out every
        other device.
      </p>

      {isLoading ? (
        <div className={styles.loading} aria-busy="true">
          <span className="visually-hidden">Loading your sessions</span>
          {SKELETON_ROWS.map((row) => (
            <Skeleton key={row} height="4.25rem" radius="var(--radius-md)" />
          ))}
        </div>
      ) : isError && sessions.length === 0 ? (
        <LoadFailure onRetry={() => void refetch()}>Your sessions could not be loaded.</LoadFailure>
      ) : sessions.length === 0 ? (
        <EmptyState>No active sessions to show.</EmptyState>
      ) : (
        <>
          <ul className={styles.sessions} aria-labelledby={titleId} aria-busy={isFetching || undefined}>
            {sessions.map((session) => (
              <SessionItem
                key={session._id}
                session={session}
                now={now}
                onSignedOut={() => titleRef.current?.focus()}
              />
            ))}
          </ul>
          {onlyThisDevice && <Hint>You are signed in on this device only.</Hint>}
        </>
      )}

      <div className={styles.everywhere}>
        <SignOutEverywhere />
      </div>
    </Card>
  );
}
