import type { DayCellMountArg, MoreLinkContentArg, MoreLinkMountArg } from '@fullcalendar/core';
import type { createElement as preactCreateElement } from '@fullcalendar/core/preact';
import styles from './week-grid.module.css';

/**
 * How many blocks a day column shows side by side where they overlap (FullCalendar's eventMaxStack); the rest of
 * the overlap sits behind a "+N" link that opens them in a popover. Three stay readable in a day column of the week
 * on a laptop, and a busy week draws far fewer blocks. That matters while dragging: each slot the pointer enters,
 * and the drop, make FullCalendar lay out and diff every drawn block of every day again. On the bench's week of 600
 * blocks (260 drawn with three) the longest task of a drag went from about 340 ms to 180 ms under 4x CPU slowdown.
 */
export const MAX_SIDE_BY_SIDE = 3;

/** The link's text, "+N" as FullCalendar shows it, read as "+N more". */
export function renderMoreLinkContent(
  { shortText }: MoreLinkContentArg,
  // FullCalendar's own (Preact's) createElement: its content stays in its tree, not in a React portal per link.
  createElement: typeof preactCreateElement,
) {
  return createElement('span', null, shortText, createElement('span', { className: styles.srOnly }, ' more'));
}

/** The link's tooltip: hidden tasks are counted with the events. */
export const moreLinkHint = (count: number) => `Show ${count} more`;

/** The link opens a dialog: it is a button to assistive technology (FullCalendar makes it an <a> with no href). */
export function announceMoreLink({ el }: MoreLinkMountArg): void {
  el.setAttribute('role', 'button');
  el.setAttribute('aria-haspopup', 'dialog');
}

// What had the focus when a popover opened (its "+N" link), to give it back when the popover closes.
const openers = new WeakMap<Element, HTMLElement>();

function isPopover(el: HTMLElement): boolean {
  return el.classList.contains('fc-more-popover');
}

/**
 * FullCalendar's popover of a "+N" link (a day cell to it) as a dialog usable from the keyboard: named by its date,
 * its close control a button one can reach and press, and the focus moved into it, so Tab goes through the blocks
 * it lists. Escape closes it (FullCalendar); `returnFocusFromPopover` then puts the focus back on the link.
 */
export function makePopoverDialog({ el }: Pick<DayCellMountArg, 'el'>): void {
  if (!isPopover(el)) return;
  el.setAttribute('role', 'dialog');
  const opener = document.activeElement;
  if (opener instanceof HTMLElement && opener.matches('.fc-more-link')) openers.set(el, opener);
  const close = el.querySelector<HTMLElement>('.fc-popover-close');
  if (!close) return;
  close.setAttribute('role', 'button');
  close.setAttribute('aria-label', 'Close');
  close.tabIndex = 0;
  close.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
    close.click();
  });
  close.focus();
}

/** A popover closing: the focus, when it was inside, goes back to the link that opened it. */
export function returnFocusFromPopover({ el }: Pick<DayCellMountArg, 'el'>): void {
  if (!isPopover(el)) return;
  const opener = openers.get(el);
  const focused = document.activeElement;
  const focusWasInside = focused === null || focused === document.body || el.contains(focused);
  if (opener?.isConnected && focusWasInside) opener.focus();
}
