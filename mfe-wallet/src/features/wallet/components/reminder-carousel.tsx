import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { IconButton } from '@time-wallet/shared-ui';
import styles from './reminders.module.css';

const prefersReducedMotion = () =>
  typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/**
 * A horizontal track of cards that snaps card by card: touch and trackpads swipe it, the focused track scrolls
 * with the arrow keys, and Previous / Next move one card.
 */
export function ReminderCarousel({
  label,
  cards,
}: {
  label: string;
  cards: { key: string; content: ReactNode }[];
}) {
  const trackRef = useRef<HTMLUListElement>(null);
  const [edges, setEdges] = useState({ atStart: true, atEnd: false });

  const updateEdges = useCallback(() => {
    const track = trackRef.current;
    if (!track) return;
    setEdges({
      atStart: track.scrollLeft <= 1,
      atEnd: track.scrollLeft + track.clientWidth >= track.scrollWidth - 1,
    });
  }, []);

  useEffect(() => {
    updateEdges();
    window.addEventListener('resize', updateEdges);
    return () => window.removeEventListener('resize', updateEdges);
  }, [updateEdges, cards.length]);

  const move = (direction: -1 | 1) => {
    const track = trackRef.current;
    const card = track?.firstElementChild;
    if (!track || !(card instanceof HTMLElement)) return;
    const gap = Number.parseFloat(getComputedStyle(track).columnGap) || 0;
    track.scrollBy({
      left: direction * (card.offsetWidth + gap),
      behavior: prefersReducedMotion() ? 'auto' : 'smooth',
    });
  };

  return (
    <div className={styles.carousel} role="region" aria-roledescription="carousel" aria-label={label}>
      <div className={styles.carouselControls}>
        <IconButton
          label="Previous reminder"
          aria-disabled={edges.atStart}
          onClick={() => !edges.atStart && move(-1)}
        >
          ‹
        </IconButton>
        <IconButton label="Next reminder" aria-disabled={edges.atEnd} onClick={() => !edges.atEnd && move(1)}>
          ›
        </IconButton>
      </div>
      {/* Focusable so keyboard users can scroll it with the arrow keys. */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex */}
      <ul ref={trackRef} className={styles.track} tabIndex={0} aria-label={label} onScroll={updateEdges}>
        {cards.map(({ key, content }, index) => (
          <li
            key={key}
            className={styles.slide}
            aria-roledescription="slide"
            aria-label={`${index + 1} of ${cards.length}`}
          >
            {content}
          </li>
        ))}
      </ul>
    </div>
  );
}
