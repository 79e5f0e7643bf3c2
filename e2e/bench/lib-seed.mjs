import { apiClient } from '../support/api-client.mjs';

const pad = (value) => String(value).padStart(2, '0');

/** YYYY-MM-DD of the machine's local day `offset` days from today (the browser runs on the same clock). */
export function localDay(offset = 0) {
  const day = new Date();
  day.setDate(day.getDate() + offset);
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
}

/** The ISO instant of a local day and HH:MM. */
export const instant = (day, hhmm) => new Date(`${day}T${hhmm}:00`).toISOString();

export const SEEDED = {
  categories: [
    ['Work', '#2F80ED'],
    ['Study', '#D9468F'],
    ['Health', '#5E9E2B'],
  ],
  // [title, category index or -1, start, end, done]
  tasks: [
    ['Answer email', 0, '08:00', '08:45', true],
    ['Write report', 0, '09:00', '11:00', true],
    ['Read chapter 4', 1, '11:15', '12:00', false],
    ['Lunch walk', 2, '12:30', '13:00', true],
    ['Review pull requests', 0, '13:30', '14:30', false],
    ['Flashcards', 1, '15:00', '15:30', false],
    ['Gym', 2, '17:00', '18:00', false],
    ['Plan tomorrow', -1, '18:15', '18:30', false],
  ],
  // [title, day of this week (0 today, 1 and 2 two other days), start, end]
  events: [
    ['Standup', 0, '09:30', '09:45'],
    ['Dentist', 0, '16:00', '16:45'],
    ['Team lunch', 1, '12:00', '13:00'],
    ['Book club', 2, '19:00', '20:30'],
  ],
};

/**
 * A fresh user with a working day of data, through the real API: three categories, eight tasks today (three done)
 * and four events this week (two of them today, so the wallet shows its reminder cards).
 * Returns {token, user, username, password}.
 */
export async function seedUserWithData(apiBaseUrl) {
  const api = apiClient(apiBaseUrl);
  const account = await api.signUp('bench');
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const call = (method, url, body) =>
    fetch(`${apiBaseUrl}${url}`, {
      method,
      headers: {
        Authorization: `Bearer ${account.token}`,
        'X-Time-Zone': timeZone,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify(body),
    }).then(async (response) => {
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${text}`);
      return JSON.parse(text);
    });

  const categoryIds = [];
  for (const [name, color] of SEEDED.categories) {
    categoryIds.push((await call('POST', '/categories', { name, color }))._id);
  }
  const today = localDay(0);
  for (const [title, category, startHHMM, endHHMM, done] of SEEDED.tasks) {
    const created = await call('POST', '/tasks', {
      title,
      categoryId: category < 0 ? '' : categoryIds[category],
      startHHMM,
      endHHMM,
      notes: '',
      date: today,
    });
    if (done) await call('PATCH', `/tasks/${created._id}`, { done: true });
  }
  // Two other days of the same week: the days before today late in the week, after it early on.
  const weekday = new Date().getDay();
  const otherDays = weekday >= 2 ? [0, -1, -2] : [0, 1, 2];
  for (const [title, which, start, end] of SEEDED.events) {
    const day = localDay(otherDays[which]);
    await call('POST', '/events', {
      title,
      start: instant(day, start),
      end: instant(day, end),
      allDay: false,
    });
  }
  return account;
}
