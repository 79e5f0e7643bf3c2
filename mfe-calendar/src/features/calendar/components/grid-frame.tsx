import { useEffect, useLayoutEffect, useMemo, useRef, type CSSProperties } from 'react';
import { addDays, formatDate, formatDateRange, toLocalDateKey } from '@time-wallet/shared-ui/lib';
import { localMidnightOf, SCROLL_TIME, TITLE_FORMAT, viewDaysOf, type GridKind } from '../lib/view-days';
import { GridToolbar } from './grid-toolbar';
import { DayHeaderFace } from './day-header';
import { LightDay, type LightDayProps } from './light-day';
import styles from './week-grid.module.css';
import frameStyles from './grid-frame.module.css';

export interface GridFrameProps {
  kind: GridKind;
  /** A day of the view to draw, as the grid would show it first. */
  day: string;
  /** Told the days the grid will show, so their data is asked for while FullCalendar downloads. */
  onRangeChange: (start: Date, end: Date) => void;
  /**
   * A phone's day drawn in the frame, usable before FullCalendar: its blocks, its figure line, and the toolbar moving
   * by a day. Without it the frame is inert and busy.
   */
  light?: LightFrame;
}

export interface LightFrame extends Omit<LightDayProps, 'day'> {
  /** The day's hours left (or over) for its header, once the ledger is read. */
  figure: { text: string; over: boolean } | null;
  loading: boolean;
  onShowDay: (day: string) => void;
}

const HOURS = Array.from({ length: 24 }, (_, hour) => `${String(hour).padStart(2, '0')}:00`);
const FIRST_HOUR_IN_SIGHT = Number(SCROLL_TIME.slice(0, 2));
const UNITS: Record<GridKind, string> = { week: 'week', day: 'day', month: 'month' };

function titleOf(kind: GridKind, days: string[], day: string): string {
  if (kind === 'month') return formatDate(localMidnightOf(day), 'en-US', TITLE_FORMAT);
  return formatDateRange(
    localMidnightOf(days[0]),
    localMidnightOf(days[days.length - 1]),
    'en-US',
    TITLE_FORMAT,
  );
}

/** The week grid's day header, with its line of hours left (empty until there is a figure). */
function FrameDayHeader({ day, figure }: { day: string; figure?: LightFrame['figure'] }) {
  return (
    <DayHeaderFace
      date={localMidnightOf(day)}
      figureLine={
        <span className={figure?.over ? `${styles.dayFigure} ${styles.over}` : styles.dayFigure}>
          {figure?.text ?? '\u00a0'}
        </span>
      }
    />
  );
}

/**
 * The grid as it will look, drawn without FullCalendar: its toolbar, the day headers, the hours and the empty slots
 * (a month: its six weeks of days), in the same box, so nothing moves when FullCalendar replaces it. Inert and busy:
 * nothing in it can be reached or used until the real grid is there, except a phone's light day (`light`).
 */
export function GridFrame({ kind, day, onRangeChange, light }: GridFrameProps) {
  const days = useMemo(() => viewDaysOf(kind, day), [kind, day]);
  const first = days[0];
  const end = addDays(days[days.length - 1], 1);
  useEffect(() => onRangeChange(localMidnightOf(first), localMidnightOf(end)), [first, end, onRangeChange]);

  const today = toLocalDateKey();
  const containsToday =
    kind === 'month' ? today.slice(0, 7) === day.slice(0, 7) : first <= today && today < end;
  // FullCalendar's own class for today: the grid's styles mark today's header (and here its column) by it.
  const todayClass = (candidate: string) => (candidate === today ? 'fc-day-today' : '');

  // The hours start scrolled as FullCalendar's do.
  const hoursRef = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const hours = hoursRef.current;
    const firstInSight = hours?.querySelector<HTMLElement>(`[data-hour="${FIRST_HOUR_IN_SIGHT}"]`);
    if (hours && firstInSight) hours.scrollTop = firstInSight.offsetTop;
  }, [kind]);

  const columns = { '--frame-columns': kind === 'month' ? 7 : days.length } as CSSProperties;
  return (
    <div className={styles.grid} inert={!light} aria-busy={light ? light.loading || undefined : true}>
      <GridToolbar
        unit={UNITS[kind]}
        title={titleOf(kind, days, day)}
        containsToday={containsToday}
        loading={light?.loading ?? true}
        {...(light && {
          onToday: () => light.onShowDay(today),
          onPrevious: () => light.onShowDay(addDays(day, -1)),
          onNext: () => light.onShowDay(addDays(day, 1)),
        })}
      />
      <div className={`${styles.body} ${frameStyles.frame}`} style={columns}>
        {kind === 'month' ? (
          <>
            <div className={frameStyles.monthHeader}>
              {days.slice(0, 7).map((weekDay) => (
                <span key={weekDay} className={frameStyles.monthDayName}>
                  {formatDate(localMidnightOf(weekDay), 'en-US', { weekday: 'short' })}
                </span>
              ))}
            </div>
            <div className={frameStyles.monthDays}>
              {days.map((monthDay) => (
                <span
                  key={monthDay}
                  className={[
                    frameStyles.monthDay,
                    todayClass(monthDay),
                    monthDay.slice(0, 7) !== day.slice(0, 7) && frameStyles.otherMonth,
                  ]
                    .filter(Boolean)
                    .join(' ')}
                >
                  {Number(monthDay.slice(8))}
                </span>
              ))}
            </div>
          </>
        ) : (
          <>
            <div className={frameStyles.header}>
              <span className={frameStyles.axis} />
              {days.map((weekDay) => (
                <span key={weekDay} className={`${frameStyles.dayCell} ${todayClass(weekDay)}`}>
                  <FrameDayHeader day={weekDay} figure={light?.figure} />
                </span>
              ))}
            </div>
            <div
              ref={hoursRef}
              className={frameStyles.hours}
              // Usable, the hours scroll by keyboard too: the scroller takes focus (its blocks may be none).
              {...(light && { tabIndex: 0, role: 'group', 'aria-label': 'Hours of the day' })}
            >
              <div className={frameStyles.slots}>
                <div className={frameStyles.columns}>
                  <span className={frameStyles.axis} />
                  {days.map((weekDay) => (
                    <span key={weekDay} className={`${frameStyles.column} ${todayClass(weekDay)}`} />
                  ))}
                </div>
                {HOURS.map((label, hour) => (
                  <div key={label} data-hour={hour}>
                    <div className={frameStyles.slot}>
                      <span className={`${frameStyles.axis} ${frameStyles.slotLabel}`}>{label}</span>
                    </div>
                    <div className={`${frameStyles.slot} ${frameStyles.minor}`} />
                  </div>
                ))}
                {light && kind === 'day' && (
                  <LightDay
                    day={day}
                    blocks={light.blocks}
                    onOpenBlock={light.onOpenBlock}
                    onTapSlot={light.onTapSlot}
                  />
                )}
              </div>
            </div>
          </>
        )}
      </div>
    </div>
  );
}
