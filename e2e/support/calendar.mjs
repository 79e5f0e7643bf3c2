/** The phone's light day view, drawn before FullCalendar until the grid is used (its value is the day). */
export const LIGHT_DAY = '[data-light-day]';

/** The calendar's time grid is drawn: FullCalendar's day columns, or on a first visit on a phone the light day view. */
export const GRID_DRAWN = `td.fc-timegrid-col[data-date], ${LIGHT_DAY}`;
