import { useId, type ReactNode } from 'react';
import { Card, Hint } from '@time-wallet/shared-ui';
import styles from './analytics-card.module.css';

interface AnalyticsCardProps {
  title: string;
  /** One line saying what the card counts; it describes the region. */
  description: string;
  loading: boolean;
  children: ReactNode;
  className?: string;
}

/** A card that is a named region, so each figure can be found by its card's title; busy while loading. */
export function AnalyticsCard({ title, description, loading, children, className }: AnalyticsCardProps) {
  const titleId = useId();
  const descriptionId = useId();
  return (
    <Card
      as="section"
      headingLevel={2}
      title={<span id={titleId}>{title}</span>}
      aria-labelledby={titleId}
      aria-describedby={descriptionId}
      aria-busy={loading || undefined}
      className={[styles.card, className].filter(Boolean).join(' ')}
    >
      <Hint id={descriptionId}>{description}</Hint>
      {children}
    </Card>
  );
}
