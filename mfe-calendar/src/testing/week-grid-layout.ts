import { act, fireEvent } from '@testing-library/react';

/**
 * jsdom lays nothing out, so FullCalendar cannot tell which slot a pointer is over. This gives the week grid a
 * fixed geometry (columns 100 px wide from x = 60, half-hour slots 15 px high from y = 0, the day headers above it)
 * and the unscheduled list a place beside it, so a test can drag with real mouse events through FullCalendar's own
 * hit testing. Call it before rendering; it undoes itself after the test.
 */

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

const COLUMN_LEFT = 60;
const COLUMN_WIDTH = 100;
const SLOT_HEIGHT = 15;
const SLOT_MINUTES = 30;
const GRID: Box = { left: 0, top: 0, right: 800, bottom: (24 * 60 * SLOT_HEIGHT) / SLOT_MINUTES };
const HEADER: Box = { left: 0, top: -40, right: 800, bottom: 0 };
const PANEL: Box = { left: 850, top: 0, right: 1000, bottom: 700 };
const ELSEWHERE: Box = { left: 0, top: -200, right: 1024, bottom: -100 };

function columnDays(): string[] {
  return [...document.querySelectorAll<HTMLElement>('td.fc-timegrid-col[data-date]')].map(
    (column) => column.dataset.date ?? '',
  );
}

function minutesOf(hhmm: string): number {
  const [hours, minutes] = hhmm.split(':').map(Number);
  return hours * 60 + minutes;
}

function columnBox(day: string): Box {
  const index = columnDays().indexOf(day);
  const left = COLUMN_LEFT + index * COLUMN_WIDTH;
  return { left, right: left + COLUMN_WIDTH, top: GRID.top, bottom: GRID.bottom };
}

function boxOf(element: Element): Box {
  if (isInPanel(element)) return PANEL;
  if (element.closest('.fc-col-header')) return HEADER;
  if (element.matches('td.fc-timegrid-col[data-date]'))
    return columnBox((element as HTMLElement).dataset.date ?? '');
  const slotTime = element.matches('tr')
    ? element.querySelector<HTMLElement>('td[data-time]')?.dataset.time
    : null;
  if (slotTime) {
    const top = (minutesOf(slotTime) / SLOT_MINUTES) * SLOT_HEIGHT;
    return { left: GRID.left, right: GRID.right, top, bottom: top + SLOT_HEIGHT };
  }
  if (element.closest('.fc') || element === document.body || element === document.documentElement)
    return GRID;
  return ELSEWHERE;
}

function isInPanel(element: Element): boolean {
  const heading = element.closest('section')?.querySelector('h2');
  return heading?.textContent === 'Unscheduled';
}

const toRect = ({ left, top, right, bottom }: Box) =>
  ({
    left,
    top,
    right,
    bottom,
    x: left,
    y: top,
    width: right - left,
    height: bottom - top,
    toJSON: () => ({}),
  }) as DOMRect;

/** Installs the geometry; returns what removes it. */
export function layOutWeekGrid(): () => void {
  const { getBoundingClientRect } = Element.prototype;
  const offsetHeight = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'offsetHeight');
  const elementFromPoint = Object.getOwnPropertyDescriptor(document, 'elementFromPoint');
  const offsetParent = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'offsetParent');
  Element.prototype.getBoundingClientRect = function boundingClientRect(this: Element) {
    return toRect(boxOf(this));
  };
  // FullCalendar measures the slots only once they have a height; elsewhere 0 keeps scrollbars out of its sums.
  Object.defineProperty(HTMLElement.prototype, 'offsetHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return this.classList.contains('fc-timegrid-slots') ? GRID.bottom - GRID.top : 0;
    },
  });
  // A "+N" popover places itself against its offset parent, which jsdom does not compute.
  Object.defineProperty(HTMLElement.prototype, 'offsetParent', {
    configurable: true,
    get(this: HTMLElement) {
      return this.parentElement;
    },
  });
  Object.defineProperty(document, 'elementFromPoint', {
    configurable: true,
    value: (x: number, y: number) => {
      const day = columnDays().find((candidate) => {
        const box = columnBox(candidate);
        return x >= box.left && x < box.right && y >= box.top && y < box.bottom;
      });
      return day ? document.querySelector(`td.fc-timegrid-col[data-date="${day}"]`) : document.body;
    },
  });
  return () => {
    Element.prototype.getBoundingClientRect = getBoundingClientRect;
    if (offsetHeight) Object.defineProperty(HTMLElement.prototype, 'offsetHeight', offsetHeight);
    if (offsetParent) Object.defineProperty(HTMLElement.prototype, 'offsetParent', offsetParent);
    if (elementFromPoint) Object.defineProperty(document, 'elementFromPoint', elementFromPoint);
    else Reflect.deleteProperty(document, 'elementFromPoint');
  };
}

/** The middle of a half-hour slot of a day column, in client coordinates. */
export function slotPoint(day: string, hhmm: string) {
  const box = columnBox(day);
  return {
    clientX: (box.left + box.right) / 2,
    clientY: (minutesOf(hhmm) / SLOT_MINUTES) * SLOT_HEIGHT + SLOT_HEIGHT / 2,
  };
}

export const panelPoint = () => ({ clientX: (PANEL.left + PANEL.right) / 2, clientY: 300 });
export const offGridPoint = () => ({ clientX: 500, clientY: -150 });

type Point = { clientX: number; clientY: number };

/**
 * Presses on an element and moves past FullCalendar's drag threshold; a drag from outside the calendar starts after
 * a zero delay, so this waits a tick: then the drag has started.
 */
export async function pressAndStartDragging(element: Element, from: Point) {
  fireEvent.mouseDown(element, { button: 0, ...from });
  fireEvent.mouseMove(document, { button: 0, clientX: from.clientX + 8, clientY: from.clientY + 1 });
  await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
}

/** Waits for what FullCalendar and the page do after a release (both in timeouts). */
export const afterRelease = () => act(() => new Promise((resolve) => setTimeout(resolve, 10)));

export function moveTo(point: Point) {
  fireEvent.mouseMove(document, { button: 0, ...point });
}

export function release(point: Point) {
  fireEvent.mouseUp(document, { button: 0, ...point });
}
