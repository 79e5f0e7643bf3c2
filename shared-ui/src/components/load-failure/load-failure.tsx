import type { ReactNode } from 'react';
import { Button } from '../button/button';
import styles from './load-failure.module.css';

export interface LoadFailureProps {
  /** What could not be loaded, said plainly ("Today's tasks are not available right now."). */
  children: ReactNode;
  /** Loads again; the button reads 'Try again'. */
  onRetry: () => void;
  className?: string;
}

/**
 * A list or a card whose data did not load: the reason, announced at once, and a way to load it again. One look for
 * every screen, so a failure never passes for an empty list or a list still loading.
 */
export function LoadFailure({ children, onRetry, className }: LoadFailureProps) {
  return (
    <div className={[styles.failure, className].filter(Boolean).join(' ')}>
      <p role="alert" className={styles.message}>
        {children}
      </p>
      <Button variant="secondary" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}
