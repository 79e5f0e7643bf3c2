export {
  addDays,
  browserTimeZone,
  formatHHMM24,
  formatTime12,
  fromDateTimeLocalValue,
  hhmmToMinutes,
  isEndAfterStart,
  toDateTimeLocalValue,
  toLocalDateKey,
} from './time';
export {
  DEFAULT_BUDGET_HOURS,
  MOOD_MESSAGES,
  MOOD_THRESHOLDS,
  isValidHours,
  moodForHours,
  overBudgetHours,
  remainingHours,
  roundHours,
} from './wallet';
export type { MascotMood, WalletMood } from './wallet';
export { TITLE_REQUIRED_MESSAGE, validateLogin, validatePassword, validateRegistration } from './validation';
export type { FieldError, LoginField, LoginInput, RegistrationField, RegistrationInput } from './validation';
export {
  DEFAULT_CATEGORY_COLOR,
  NO_DATA_CATEGORY_NAME,
  TOP_CATEGORY_COUNT,
  restAndSelfCareHours,
  roundPercent,
  topCategories,
} from './analytics';
export type { CategoryMinutes, CategoryShare } from './analytics';
export { DEFAULT_PALETTE, normalizeColor, swatchesFor } from './tags';
