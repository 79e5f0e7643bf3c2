const SHEET_SELECTOR = 'style[data-fullcalendar]';

/**
 * Gives FullCalendar the <style data-fullcalendar> element it fills at run time before it makes its own, so the
 * sheet can leave the document with the calendar and skips the icon font (the product's CSP refuses data: fonts,
 * and our toolbar needs no icons). Returns what removes the sheet.
 */
export function claimFullCalendarStyleSheet(): () => void {
  const existing = document.head.querySelector(SHEET_SELECTOR);
  if (existing) return () => existing.remove();
  const styleElement = document.createElement('style');
  styleElement.setAttribute('data-fullcalendar', '');
  // Where FullCalendar puts it: before every other sheet, so the product's styles win.
  document.head.insertBefore(
    styleElement,
    document.head.querySelector('script,link[rel=stylesheet],link[as=style],style'),
  );
  const sheet = styleElement.sheet;
  if (sheet) {
    const insertRule = sheet.insertRule.bind(sheet);
    sheet.insertRule = (rule, index) =>
      rule.trimStart().startsWith('@font-face')
        ? sheet.cssRules.length
        : insertRule(rule, Math.min(index ?? 0, sheet.cssRules.length));
  }
  return () => styleElement.remove();
}

// FullCalendar fills a sheet as soon as its modules load: this module is imported before them.
claimFullCalendarStyleSheet();
