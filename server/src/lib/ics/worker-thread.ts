import { parentPort, workerData } from 'node:worker_threads';
import { InvalidCalendarError, parseCalendar, type CalendarJob } from './parse.js';

const job = workerData as CalendarJob;
try {
  parentPort?.postMessage({ ok: true, calendar: parseCalendar(job.text, job.timeZone, job.now) });
} catch (error) {
  const message =
    error instanceof InvalidCalendarError ? error.message : 'The file is not a valid iCalendar (.ics) file';
  parentPort?.postMessage({ ok: false, message });
}
