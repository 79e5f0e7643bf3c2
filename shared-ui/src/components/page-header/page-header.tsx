import type { ReactNode } from 'react';
import styles from './page-header.module.css';

export interface PageHeaderProps {
  /** The heading's id, for the page section's aria-labelledby. */
  titleId: string;
  title: ReactNode;
  subtitle: ReactNode;
  subtitleId?: string;
  /** Further lines under the subtitle (hints). */
  children?: ReactNode;
  /** Controls at the end of the header (an Add button), wrapping under the title on narrow screens. */
  actions?: ReactNode;
}

/** A page's heading and one-line summary, as every signed-in page opens. */
export function PageHeader({ titleId, title, subtitle, subtitleId, children, actions }: PageHeaderProps) {
  return (
    <header className={styles.header}>
      <div className={styles.text}>
        <h1 id={titleId} className={styles.title}>
          {title}
        </h1>
        <p id={subtitleId} className={styles.subtitle}>
          {subtitle}
        </p>
        {children}
      </div>
      {actions}
    </header>
  );
}

export interface PageProps extends Omit<PageHeaderProps, 'children'> {
  /** Lines under the subtitle (hints). */
  hints?: ReactNode;
  /** Added to the page's own layout (a grid of its parts). */
  className?: string;
  children: ReactNode;
}

/** A signed-in page: a section named by its heading, the header, then the page's parts on a grid. */
export function Page({ className, hints, children, ...header }: PageProps) {
  return (
    <section
      className={className ? `${styles.page} ${className}` : styles.page}
      aria-labelledby={header.titleId}
    >
      <PageHeader {...header}>{hints}</PageHeader>
      {children}
    </section>
  );
}
