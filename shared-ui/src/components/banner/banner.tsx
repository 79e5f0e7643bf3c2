import type { ReactNode } from 'react';
import { IconButton } from '../icon-button/icon-button';
import styles from './banner.module.css';

export type BannerTone = 'error' | 'info' | 'success';

export interface BannerProps {
  tone: BannerTone;
  /** When given, the banner shows a '×' button that calls it. */
  onDismiss?: () => void;
  children: ReactNode;
  className?: string;
}

/** A message across the top of a screen; errors are announced at once (role="alert"). */
export function Banner({ tone, onDismiss, children, className }: BannerProps) {
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={[styles.banner, styles[tone], className].filter(Boolean).join(' ')}
    >
      <div className={styles.message}>{children}</div>
      {onDismiss && (
        <IconButton label="Dismiss" className={styles.dismiss} onClick={onDismiss}>
          ×
        </IconButton>
      )}
    </div>
  );
}
