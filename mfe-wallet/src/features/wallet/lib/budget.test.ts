import { BUDGET_HOURS_MESSAGE, budgetHoursError, weekdayBudgetsOf, WEEKDAYS } from './budget';

describe('budgetHoursError', () => {
  it.each(['0', '7.5', '15', '24'])('accepts %s hours', (text) => {
    expect(budgetHoursError(text)).toBeNull();
  });

  it.each(['', '  ', 'abc', '-1', '24.5', 'NaN'])('refuses %p', (text) => {
    expect(budgetHoursError(text)).toBe(BUDGET_HOURS_MESSAGE);
  });
});

describe('weekdayBudgetsOf', () => {
  it('starts from the budgets per weekday, Sunday first', () => {
    expect(weekdayBudgetsOf(15, [0, 8, 8, 8, 8, 6, 2])).toEqual(['0', '8', '8', '8', '8', '6', '2']);
    expect(WEEKDAYS[0]).toBe('Sunday');
    expect(WEEKDAYS[6]).toBe('Saturday');
  });

  it('starts every weekday from the one budget when there are none', () => {
    expect(weekdayBudgetsOf(7.5, null)).toEqual(Array(7).fill('7.5'));
  });
});
