import { useId, type HTMLAttributes, type ReactNode } from 'react';
import styles from './card.module.css';

export type HeadingLevel = 1 | 2 | 3 | 4 | 5 | 6;

export interface CardProps extends Omit<HTMLAttributes<HTMLElement>, 'title'> {
  title?: ReactNode;
  /** The heading level of the title, to fit the page outline. */
  headingLevel?: HeadingLevel;
  /** The element rendered, e.g. 'li' when cards form a list. */
  as?: 'div' | 'section' | 'article' | 'li';
  children?: ReactNode;
}

/**
 * A raised surface grouping related content, with an optional heading. A section or article with a title is named by
 * it, so assistive technology lists it as a region (unless the caller names it otherwise).
 */
export function Card({
  title,
  headingLevel = 3,
  as: Element = 'div',
  className,
  children,
  ...props
}: CardProps) {
  const Heading = `h${headingLevel}` as const;
  const headingId = useId();
  const named = title != null && (Element === 'section' || Element === 'article');
  const labelledBy =
    named && !props['aria-label'] ? (props['aria-labelledby'] ?? headingId) : props['aria-labelledby'];
  return (
    <Element
      {...props}
      aria-labelledby={labelledBy}
      className={[styles.card, className].filter(Boolean).join(' ')}
    >
      {title != null && (
        <Heading id={headingId} className={styles.title}>
          {title}
        </Heading>
      )}
      {children}
    </Element>
  );
}
