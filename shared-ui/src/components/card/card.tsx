import type { HTMLAttributes, ReactNode } from 'react';
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

/** A raised surface grouping related content, with an optional heading. */
export function Card({
  title,
  headingLevel = 3,
  as: Element = 'div',
  className,
  children,
  ...props
}: CardProps) {
  const Heading = `h${headingLevel}` as const;
  return (
    <Element {...props} className={[styles.card, className].filter(Boolean).join(' ')}>
      {title != null && <Heading className={styles.title}>{title}</Heading>}
      {children}
    </Element>
  );
}
