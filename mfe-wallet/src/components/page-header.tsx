import styles from './page-header.module.css';

export function PageHeader({
  titleId,
  title,
  subtitle,
}: {
  titleId: string;
  title: string;
  subtitle: string;
}) {
  return (
    <header className={styles.header}>
      <h1 id={titleId} className={styles.title}>
        {title}
      </h1>
      <p className={styles.subtitle}>{subtitle}</p>
    </header>
  );
}
