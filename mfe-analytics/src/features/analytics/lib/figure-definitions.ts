/**
 * What each card counts, in one line, in the words of the server's definitions (the WeeklyAnalytics descriptions
 * of the OpenAPI document). The page never counts time itself: every figure it shows is the server's.
 */
export const FIGURE_DEFINITIONS = {
  categoryTimeShare: 'Share of the week’s planned time per category.',
  averageProductiveHours:
    'Productive: tracked time, done tasks’ blocks and ended events, each hour once, a day on average.',
  dailySpendComparison:
    'Active time is productive hours a day; rest and self care is what is left, 12 at most.',
  consistenceStreak: 'Most days in a row this week with at least one done task.',
  hoursPerDay:
    'Planned: scheduled tasks and timed events, overlaps once, all-day events free. Tracked: time entries, from the timer or added by hand.',
  whereYourTimeWent: 'Planned time per category; time without one is No category.',
  everyFigure: 'Dismissed tasks count in no figure.',
} as const;
