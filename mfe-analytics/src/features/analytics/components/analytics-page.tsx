import { pageText } from '@time-wallet/api/page-text';
import { useState } from 'react';
import type { FetchBaseQueryError, SerializedError } from '@time-wallet/api';
import { Hint, LoadFailure, Page, Skeleton } from '@time-wallet/shared-ui';
import { addDays, toLocalDateKey } from '@time-wallet/shared-ui/lib';
import {
  UNKNOWN_ERROR_MESSAGE,
  useGetWeeklyComparisonQuery,
  type WeeklyComparison,
} from '../api/weekly-analytics-api';
import {
  categoryTimeShare,
  dailySpendComparison,
  daysFigure,
  formatHours,
  hoursPerDay,
} from '../lib/analytics-figures';
import { FIGURE_DEFINITIONS } from '../lib/figure-definitions';
import { AnalyticsCard } from './analytics-card';
import { CategoryShareChart } from './category-share-chart';
import { CategoryTimeShare } from './category-time-share';
import { FigureList } from './figure-list';
import { HoursPerDayChart } from './hours-per-day-chart';
import styles from './analytics-page.module.css';

/** The page's heading and subtitle, one fact in the registry (the shell prerenders them too). */
const TEXT = pageText('analytics');

function failureMessageOf(error: FetchBaseQueryError | SerializedError): string {
  if ('status' in error) return 'error' in error ? error.error : UNKNOWN_ERROR_MESSAGE;
  return error.message || UNKNOWN_ERROR_MESSAGE;
}

/**
 * The page's cards and charts: the server's figures for this week and last, or, while they load, each card's title
 * and definition with placeholders (that state is also the page's first frame, app/first-frames.tsx).
 */
export function AnalyticsFigures({
  comparison,
  loading,
  today,
}: {
  comparison: WeeklyComparison | undefined;
  loading: boolean;
  today: string;
}) {
  const thisWeek = comparison?.thisWeek;
  const lastWeek = comparison?.lastWeek;
  const dailySpend = dailySpendComparison(thisWeek);
  return (
    <>
      <div className={styles.cards}>
        <AnalyticsCard
          title="Category Time Share"
          description={FIGURE_DEFINITIONS.categoryTimeShare}
          loading={loading}
        >
          <CategoryTimeShare shares={categoryTimeShare(thisWeek)} loading={loading} />
        </AnalyticsCard>
        <AnalyticsCard
          title="Average Productive Hours"
          description={FIGURE_DEFINITIONS.averageProductiveHours}
          loading={loading}
        >
          <FigureList
            loading={loading}
            figures={[
              {
                label: 'Last week',
                value: formatHours(lastWeek?.averageProductiveHours ?? 0),
                unit: 'hours',
              },
              {
                label: 'This week',
                value: formatHours(thisWeek?.averageProductiveHours ?? 0),
                unit: 'hours',
              },
            ]}
          />
        </AnalyticsCard>
        <AnalyticsCard
          title="Daily Spend Comparison"
          description={FIGURE_DEFINITIONS.dailySpendComparison}
          loading={loading}
        >
          <FigureList
            loading={loading}
            figures={[
              { label: 'active time', value: formatHours(dailySpend.activeHours), unit: 'hours' },
              {
                label: 'rest and self care',
                value: formatHours(dailySpend.restAndSelfCareHours),
                unit: 'hours',
              },
            ]}
          />
        </AnalyticsCard>
        <AnalyticsCard
          title="Consistence Streak"
          description={FIGURE_DEFINITIONS.consistenceStreak}
          loading={loading}
        >
          <FigureList
            loading={loading}
            figures={[
              { label: 'Last week', ...daysFigure(lastWeek?.streak ?? 0) },
              { label: 'This week', ...daysFigure(thisWeek?.streak ?? 0) },
            ]}
          />
        </AnalyticsCard>
      </div>

      <div className={styles.charts}>
        <AnalyticsCard
          title="Hours per Day This Week"
          description={FIGURE_DEFINITIONS.hoursPerDay}
          loading={loading}
        >
          <HoursPerDayChart bars={hoursPerDay(thisWeek)} today={today} loading={loading} />
        </AnalyticsCard>
        <AnalyticsCard
          title="Where Your Time Went"
          description={FIGURE_DEFINITIONS.whereYourTimeWent}
          loading={loading}
        >
          {loading ? (
            <Skeleton width="10rem" height="10rem" radius="var(--radius-full)" />
          ) : (
            <CategoryShareChart
              byCategory={thisWeek?.byCategory ?? []}
              totalMinutes={thisWeek?.totalMinutes ?? 0}
            />
          )}
        </AnalyticsCard>
      </div>
    </>
  );
}

export function AnalyticsPage() {
  // The day is fixed when the page opens, so a page left open past midnight keeps comparing the same weeks.
  const [today] = useState(() => toLocalDateKey(new Date()));
  const { data, error, isLoading, refetch } = useGetWeeklyComparisonQuery({
    today,
    sameDayLastWeek: addDays(today, -7),
  });
  const loading = isLoading || (!data && !error);

  return (
    <Page
      titleId="analytics-page-title"
      title={TEXT.heading}
      subtitle={TEXT.subtitle}
      hints={<Hint>{FIGURE_DEFINITIONS.everyFigure}</Hint>}
    >
      {error ? (
        <LoadFailure onRetry={() => void refetch()}>Error: {failureMessageOf(error)}</LoadFailure>
      ) : (
        <AnalyticsFigures comparison={data} loading={loading} today={today} />
      )}
    </Page>
  );
}
