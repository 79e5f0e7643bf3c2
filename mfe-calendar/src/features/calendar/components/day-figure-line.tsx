import { createContext, useContext, useSyncExternalStore } from 'react';
import type { DayLedgerStore } from '../lib/day-ledger-store';
import styles from './week-grid.module.css';

/** The grid's figures of the visible days: each line reads its own day, so only a changed line renders. */
export const DayLedgerContext = createContext<DayLedgerStore | null>(null);
const noSubscription = () => () => undefined;

/** The day's remaining hours (or how far over budget), as the ledger says; live while a block is dragged. */
export function DayFigureLine({ dateKey, className }: { dateKey: string; className?: string }) {
  const store = useContext(DayLedgerContext);
  const figure = useSyncExternalStore(
    store?.subscribe ?? noSubscription,
    () => store?.figureOf(dateKey) ?? null,
  );
  const classes = [
    styles.dayFigure,
    className,
    figure?.over && styles.over,
    figure?.preview && styles.preview,
  ]
    .filter(Boolean)
    .join(' ');
  // A line is kept even before the ledger arrives, so the header does not grow when it does.
  return <span className={classes}>{figure ? figure.text : '\u00a0'}</span>;
}
