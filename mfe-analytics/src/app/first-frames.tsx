import { renderToStaticMarkup } from 'react-dom/server';
import { AnalyticsFigures } from '../features/analytics/components/analytics-page';

/** One page's first frame: what goes under the page's header before its data comes (devkit/webpack/prerender.cjs). */
export interface FirstFrame {
  /** The registry page it draws. */
  page: string;
  html: string;
}

/**
 * Build time only (run in Node by the devkit's prerender plugin, never shipped): the analytics page's cards while its
 * figures load, each with its title and definition. The shell's static server puts this in the page's first HTML, so
 * a first visit paints the cards' words with the page's header, before any script has run; this build's own next
 * deploy brings its next frame, with no change to the shell.
 */
export function prerender(): FirstFrame[] {
  // No figures yet, so nothing in the frame depends on the day it is built.
  const html = renderToStaticMarkup(<AnalyticsFigures comparison={undefined} loading today="" />, {
    // Its ids (the cards' labels) then never match one the shell's own prerendered frame may have.
    identifierPrefix: 'first-frame-analytics-',
  });
  return [{ page: 'analytics', html }];
}
