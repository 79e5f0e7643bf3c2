import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import type { TimeEntry } from '@time-wallet/api';
import {
  entryAfterDrag,
  entryLabel,
  entrySegmentsOf,
  type BarDrag,
  type EntrySegment,
} from '../lib/tracked-time';
import styles from './tracked-lane.module.css';

/** A change of an entry's times asked for by a drag; resolves false when the server refused it. */
export type EntryMove = { id: string; start: string; end: string | null };

export interface TrackedLaneProps {
  /** The column's local day, YYYY-MM-DD. */
  day: string;
  entries: readonly TimeEntry[];
  taskTitles: ReadonlyMap<string, string>;
  /** The instant a running entry is drawn up to. */
  now: number;
  onOpenEntry: (entryId: string) => void;
  onMoveEntry: (move: EntryMove) => Promise<boolean>;
}

const DAY_MINUTES = 1440;
/** Pixels a pointer moves before a press becomes a drag (below: a click, which opens the dialog). */
const DRAG_THRESHOLD_PX = 3;

interface DragState {
  entryId: string;
  drag: BarDrag;
  fromY: number;
  /** Minutes per pixel of the lane, read once when the press starts. */
  scale: number;
  moved: boolean;
}

const percent = (share: number) => `${(share * 100).toFixed(4)}%`;

/**
 * A day column's tracked time: each entry (its part of the day) as a thin bar beside the planned blocks. A bar is a
 * button: activated (a click, Enter or Space) it opens the entry's dialog, the keyboard's way to move and trim it.
 * With a pointer it is dragged to move it, or by its top or bottom edge to trim it, in steps of five minutes; the
 * bar stays where it was dropped while the change is saved and goes back if the server refuses it.
 */
export function TrackedLane({ day, entries, taskTitles, now, onOpenEntry, onMoveEntry }: TrackedLaneProps) {
  const laneRef = useRef<HTMLDivElement>(null);
  const drag = useRef<DragState | null>(null);
  // A press that became a drag: the click that ends it opens nothing.
  const suppressClick = useRef(false);
  // The drag shown (live), then the drop being saved: the entry drawn at those times until the entries change.
  const [shown, setShown] = useState<(EntryMove & { saving: boolean }) | null>(null);
  const [entriesAtDrop, setEntriesAtDrop] = useState(entries);
  if (entriesAtDrop !== entries) {
    setEntriesAtDrop(entries);
    if (shown?.saving) setShown(null);
  }

  const drawn = shown
    ? entries.map((entry) =>
        entry.id === shown.id ? { ...entry, start: shown.start, end: shown.end } : entry,
      )
    : entries;
  const segments = entrySegmentsOf(drawn, day, now);

  useEffect(() => {
    const deltaOf = (state: DragState, clientY: number) => (clientY - state.fromY) * state.scale;
    const entryOf = (id: string) => entries.find((entry) => entry.id === id);
    const move = (event: PointerEvent) => {
      const state = drag.current;
      if (!state) return;
      if (!state.moved && Math.abs(event.clientY - state.fromY) < DRAG_THRESHOLD_PX) return;
      state.moved = true;
      const entry = entryOf(state.entryId);
      const next = entry && entryAfterDrag(entry, state.drag, deltaOf(state, event.clientY));
      setShown(next ? { id: state.entryId, ...next, saving: false } : null);
    };
    const release = (event: PointerEvent) => {
      const state = drag.current;
      if (!state) return;
      drag.current = null;
      if (!state.moved) return;
      suppressClick.current = true;
      const entry = entryOf(state.entryId);
      const next = entry && entryAfterDrag(entry, state.drag, deltaOf(state, event.clientY));
      if (!next) {
        setShown(null);
        return;
      }
      setShown({ id: state.entryId, ...next, saving: true });
      void onMoveEntry({ id: state.entryId, ...next }).then((saved) => {
        if (!saved) setShown(null);
      });
    };
    const cancel = () => {
      if (!drag.current) return;
      drag.current = null;
      setShown(null);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', release);
    window.addEventListener('pointercancel', cancel);
    return () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', release);
      window.removeEventListener('pointercancel', cancel);
    };
  }, [entries, onMoveEntry]);

  const press = (event: ReactPointerEvent, segment: EntrySegment, how: BarDrag) => {
    if (event.button !== 0) return;
    const height = laneRef.current?.getBoundingClientRect().height ?? 0;
    // No layout to measure (the lane hidden): a press stays a click.
    if (!(height > 0)) return;
    event.stopPropagation();
    suppressClick.current = false;
    drag.current = {
      entryId: segment.entry.id,
      drag: how,
      fromY: event.clientY,
      scale: DAY_MINUTES / height,
      moved: false,
    };
  };

  return (
    <div ref={laneRef} className={styles.lane} data-tracked-lane={day}>
      {segments.map((segment) => {
        const { entry } = segment;
        const running = entry.end === null;
        const label = entryLabel(entry, taskTitles.get(entry.taskId));
        const classes = [
          styles.bar,
          running && styles.running,
          shown?.id === entry.id && styles.moving,
          segment.continuesBefore && styles.continuesBefore,
          segment.continuesAfter && styles.continuesAfter,
        ];
        return (
          <button
            key={entry.id}
            type="button"
            className={classes.filter(Boolean).join(' ')}
            style={{ top: percent(segment.top), height: percent(segment.height) }}
            aria-label={label}
            title={label}
            data-entry-id={entry.id}
            onPointerDown={(event) => press(event, segment, 'move')}
            onClick={() => {
              if (suppressClick.current) {
                suppressClick.current = false;
                return;
              }
              onOpenEntry(entry.id);
            }}
          >
            {!segment.continuesBefore && (
              <span
                className={`${styles.handle} ${styles.handleStart}`}
                data-edge="start"
                aria-hidden="true"
                onPointerDown={(event) => press(event, segment, 'start')}
              />
            )}
            {!segment.continuesAfter && !running && (
              <span
                className={`${styles.handle} ${styles.handleEnd}`}
                data-edge="end"
                aria-hidden="true"
                onPointerDown={(event) => press(event, segment, 'end')}
              />
            )}
          </button>
        );
      })}
    </div>
  );
}
