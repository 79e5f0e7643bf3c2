import { BUDGET_HOURS_MESSAGE, budgetHoursError } from './budget';

describe('budgetHoursError', () => {
  it.each(['0', '7.5', '15', '24'])('accepts %s hours', (text) => {
    expect(budgetHoursError(text)).toBeNull();
  });

  it.each(['', '  ', 'abc', '-1', '24.5', 'NaN'])('refuses %p', (text) => {
    expect(budgetHoursError(text)).toBe(BUDGET_HOURS_MESSAGE);
  });
});
