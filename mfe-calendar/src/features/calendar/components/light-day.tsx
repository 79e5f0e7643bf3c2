import type { MouseEvent } from 'react';
import type { LightBlock } from '../lib/light-day';
import { SLOT_MINUTES } from '../lib/event-dates';
import { DAY_MINUTES } from '../lib/task-blocks';
import { localMidnightOf } from '../lib/view-days';
import { LockMark } from './lock-mark';
import gridStyles from './week-grid.module.css';
import styles from './light-day.module.css';

export interface LightDayProps {
  day: string;
  blocks: readonly LightBlock[];
  onOpenBlock: (block: LightBlock) => void;
  onTapSlot: (start: Date) => void;
}

/** A block shorter than this has room for one line: its time and title on it, cut with an ellipsis. */
const SHORT_MINUTES = 45;

const percent = (minutes: number) => `${(minutes / DAY_MINUTES) * 100}%`;

/**
 * The phone's day drawn without FullCalendar (issue 33: its first draw is one long task): the day's blocks over the
 * frame's slots, each a button that opens its item, and a tap on an empty slot drafts an hour there. FullCalendar
 * takes over on the first such use (the page's choice), for dragging and resizing.
 */
export function LightDay({ day, blocks, onOpenBlock, onTapSlot }: LightDayProps) {
  const tapSlot = (event: MouseEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget) return;
    const box = event.currentTarget.getBoundingClientRect();
    if (box.height <= 0) return;
    const minute = ((event.clientY - box.top) / box.height) * DAY_MINUTES;
    const slot = Math.min(DAY_MINUTES - SLOT_MINUTES, Math.floor(minute / SLOT_MINUTES) * SLOT_MINUTES);
    const start = localMidnightOf(day);
    start.setMinutes(slot);
    onTapSlot(start);
  };
  return (
    <div className={styles.layer}>
      {/* The slots take taps; the blocks are the keyboard's way in (the page's Add Event button adds one). */}
      {/* eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-static-element-interactions */}
      <div className={styles.column} onClick={tapSlot} data-light-day={day}>
        {blocks.map((block) => (
          <button
            key={`${block.kind}:${block.itemId}`}
            type="button"
            className={[
              styles.block,
              block.kind === 'task' || block.readOnly ? styles.striped : '',
              block.done ? styles.done : '',
              block.imported ? styles.imported : '',
              block.endMinute - block.startMinute < SHORT_MINUTES ? styles.short : '',
            ]
              .filter(Boolean)
              .join(' ')}
            style={{
              top: percent(block.startMinute),
              height: percent(block.endMinute - block.startMinute),
              left: `${(block.lane / block.lanes) * 100}%`,
              width: `${100 / block.lanes}%`,
              ...(block.color ? { '--block-color': block.color } : {}),
            }}
            onClick={() => onOpenBlock(block)}
          >
            {block.kind === 'task' ? (
              <>
                {/* Worded as FullCalendar's task blocks (task-event.ts), for eyes and for screen readers. */}
                <span aria-hidden="true">{block.done ? '☑' : '☐'}</span>{' '}
                <span className={gridStyles.srOnly}>{block.done ? 'Done task: ' : 'Task: '}</span>
                <span className={styles.title}>{block.title}</span>{' '}
                <span className={styles.taskTime}>{block.timeText}</span>
              </>
            ) : (
              <>
                <span className={styles.time}>{block.timeText}</span>{' '}
                <span className={styles.title}>
                  {block.title}
                  {block.readOnly && <LockMark />}
                </span>
              </>
            )}
          </button>
        ))}
      </div>
    </div>
  );
}
