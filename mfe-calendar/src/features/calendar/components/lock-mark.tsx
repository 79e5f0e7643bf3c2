import styles from './lock-mark.module.css';

/** What the lock says to screen readers: the event changes only where its calendar is kept. */
export const READ_ONLY_LABEL = 'read-only';

const SVG_NS = 'http://www.w3.org/2000/svg';
const SHACKLE = 'M5.5 7V5a2.5 2.5 0 0 1 5 0v2';
const BODY = { x: '3', y: '7', width: '10', height: '8', rx: '1.5' } as const;

/** The lock after a subscribed event's title (React: the all-day strip, the dialog, the panel). */
export function LockMark() {
  return (
    <svg role="img" aria-label={READ_ONLY_LABEL} viewBox="0 0 16 16" className={styles.lock}>
      <path d={SHACKLE} fill="none" stroke="currentColor" strokeWidth="1.75" />
      <rect {...BODY} fill="currentColor" />
    </svg>
  );
}

/** The same lock as plain DOM, for FullCalendar's block content (no React per block). */
export function lockMarkElement(): SVGSVGElement {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', READ_ONLY_LABEL);
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('class', styles.lock ?? '');
  const shackle = document.createElementNS(SVG_NS, 'path');
  shackle.setAttribute('d', SHACKLE);
  shackle.setAttribute('fill', 'none');
  shackle.setAttribute('stroke', 'currentColor');
  shackle.setAttribute('stroke-width', '1.75');
  const body = document.createElementNS(SVG_NS, 'rect');
  for (const [name, value] of Object.entries(BODY)) body.setAttribute(name, value);
  body.setAttribute('fill', 'currentColor');
  svg.append(shackle, body);
  return svg;
}
