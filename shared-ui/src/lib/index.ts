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
export { isValidHours, remainingHours, roundHours } from './wallet';
export { TITLE_REQUIRED_MESSAGE } from './validation';
export type { FieldError } from './validation';
