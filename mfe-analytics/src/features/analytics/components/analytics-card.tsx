import { useId, type ReactNode } from 'react';
import { Card } from '@time-wallet/shared-ui';
import styles from './analytics-card.module.css';

interface AnalyticsCardProps {
  title: string;
  loading: boolean;
  children: ReactNode;
  className?: string;
}

/** A card that is a named region, so each figure can be found by its card's title; busy while loading. */
export function AnalyticsCard({ title, loading, children, className }: AnalyticsCardProps) {
  const titleId = useId();
  return (
    <Card
      as="section"
      headingLevel={2}
      title={<span id={titleId}>{title}</span>}
      aria-labelledby={titleId}
      aria-busy={loading || undefined}
      className={[styles.card, className].filter(Boolean).join(' ')}
    >
      {children}
    </Card>
  );
}
