// The grids drawn by FullCalendar and its Draggable for the task list, in a chunk of their own: the page loads it
// after its frame is painted.
// First: FullCalendar fills its style sheet as its modules are evaluated, and this claims the sheet before them.
import '../lib/fullcalendar-style-sheet';

export { MonthGrid } from './month-grid';
export { WeekGrid } from './week-grid';
export { Draggable } from '@fullcalendar/interaction';
