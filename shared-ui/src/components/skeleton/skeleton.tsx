import styles from './skeleton.module.css';

export interface SkeletonProps {
  /** CSS length, or pixels when a number; match the content it stands for so nothing jumps. */
  width?: string | number;
  height?: string | number;
  radius?: string | number;
  /** How many placeholder blocks to stack. */
  count?: number;
  /** A placeholder for content that is not coming (an empty list SPEC fills with skeletons): no shimmer. */
  still?: boolean;
  className?: string;
}

const toLength = (value: string | number) => (typeof value === 'number' ? `${value}px` : value);

/** A placeholder shaped like content still loading; hidden from assistive technology. */
export function Skeleton({
  width = '100%',
  height = '1rem',
  radius = 'var(--radius-sm)',
  count = 1,
  still = false,
  className,
}: SkeletonProps) {
  return (
    <span
      aria-hidden="true"
      className={[styles.skeleton, still && styles.still, className].filter(Boolean).join(' ')}
    >
      {Array.from({ length: Math.max(0, count) }, (_, index) => (
        <span
          key={index}
          className={styles.block}
          style={{ width: toLength(width), height: toLength(height), borderRadius: toLength(radius) }}
        />
      ))}
    </span>
  );
}
