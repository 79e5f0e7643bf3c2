import { useState } from 'react';
import {
  selectCurrentUser,
  useAppSelector,
  type FetchBaseQueryError,
  type SerializedError,
} from '@time-wallet/api';
import { LoadFailure, Page, Skeleton } from '@time-wallet/shared-ui';
import { addDays, toLocalDateKey } from '@time-wallet/shared-ui/lib';
import { UNKNOWN_ERROR_MESSAGE, useGetWeeklyComparisonQuery } from '../api/weekly-analytics-api';
import {
  categoryTimeShare,
  dailyBudgetHours,
  dailySpendComparison,
  daysFigure,
  formatHours,
  hoursPerDay,
} from '../lib/analytics-figures';
import { AnalyticsCard } from './analytics-card';
import { CategoryShareChart } from './category-share-chart';
import { CategoryTimeShare } from './category-time-share';
import { FigureList } from './figure-list';
import { HoursPerDayChart } from './hours-per-day-chart';
import styles from './analytics-page.module.css';

function failureMessageOf(error: FetchBaseQueryError | SerializedError): string {
  if ('status' in error) return 'error' in error ? error.error : UNKNOWN_ERROR_MESSAGE;
  return error.message || UNKNOWN_ERROR_MESSAGE;
}

export function AnalyticsPage() {
  // The day is fixed when the page opens, so a page left open past midnight keeps comparing the same weeks.
  const [today] = useState(() => toLocalDateKey(new Date()));
  const { data, error, isLoading, refetch } = useGetWeeklyComparisonQuery({
    today,
    sameDayLastWeek: addDays(today, -7),
  });
  const user = useAppSelector(selectCurrentUser);
  const budgetHours = dailyBudgetHours(user?.budgetHours);
  const loading = isLoading || (!data && !error);
  const thisWeek = data?.thisWeek;
  const lastWeek = data?.lastWeek;
  const dailySpend = dailySpendComparison(thisWeek);

  return (
    <Page
      titleId="analytics-page-title"
      title="Time Wallet Analytics"
      subtitle="See how you progress this week"
    >
      {error ? (
        <LoadFailure onRetry={() => void refetch()}>Error: {failureMessageOf(error)}</LoadFailure>
      ) : (
        <>
          <div className={styles.cards}>
            <AnalyticsCard title="Category Time Share" loading={loading}>
              <CategoryTimeShare shares={categoryTimeShare(thisWeek)} loading={loading} />
            </AnalyticsCard>
            <AnalyticsCard title="Average Productive Hours" loading={loading}>
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
            <AnalyticsCard title="Daily Spend Comparison" loading={loading}>
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
            <AnalyticsCard title="Consistence Streak" loading={loading}>
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
            <AnalyticsCard title="Hours per Day This Week" loading={loading}>
              {loading ? (
                <Skeleton height="14.5rem" />
              ) : (
                <HoursPerDayChart
                  bars={hoursPerDay(thisWeek, budgetHours)}
                  budgetHours={budgetHours}
                  today={today}
                />
              )}
            </AnalyticsCard>
            <AnalyticsCard title="Where Your Time Went" loading={loading}>
              {loading ? (
                <Skeleton width="10rem" height="10rem" radius="var(--radius-full)" />
              ) : (
                <CategoryShareChart byCategory={thisWeek?.byCategory ?? []} />
              )}
            </AnalyticsCard>
          </div>
        </>
      )}
    </Page>
  );
}
