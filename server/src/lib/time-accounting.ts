export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;

export interface TimeSpan {
  startAt: number;
  endAt: number;
}

/** The part of a span inside [from, to), in milliseconds: a day's share of a task or event is clamped to that day. */
export function overlapMs(span: TimeSpan, from: number, to: number): number {
  return Math.max(0, Math.min(span.endAt, to) - Math.max(span.startAt, from));
}

export function totalOverlapMs(spans: TimeSpan[], from: number, to: number): number {
  return spans.reduce((sum, span) => sum + overlapMs(span, from, to), 0);
}

export function roundToTenth(value: number): number {
  return Math.round(value * 10) / 10;
}

export function hoursOf(ms: number): number {
  return roundToTenth(ms / HOUR_MS);
}

export function minutesOf(ms: number): number {
  return Math.round(ms / MINUTE_MS);
}
