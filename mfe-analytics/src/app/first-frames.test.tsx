import { within } from '@testing-library/react';
import { FIGURE_DEFINITIONS } from '../features/analytics/lib/figure-definitions';
import { prerender } from './first-frames';

describe('first frames', () => {
  it("draws the analytics cards as they load: each card's title and definition, placeholders, no figure", () => {
    const frames = prerender();
    expect(frames.map((frame) => frame.page)).toEqual(['analytics']);
    const root = document.createElement('div');
    root.innerHTML = frames[0].html;
    document.body.replaceChildren(root);
    const view = within(root);
    for (const title of [
      'Category Time Share',
      'Average Productive Hours',
      'Daily Spend Comparison',
      'Consistence Streak',
      'Hours per Day This Week',
      'Where Your Time Went',
    ]) {
      const card = view.getByRole('region', { name: title });
      expect(card).toHaveAttribute('aria-busy', 'true');
    }
    const { everyFigure, ...cardDefinitions } = FIGURE_DEFINITIONS;
    for (const definition of Object.values(cardDefinitions))
      expect(view.getByText(definition)).toBeInTheDocument();
    // The page's header (and its hint) is the shell's frame's; the frame is what goes under it.
    expect(view.queryByText(everyFigure)).not.toBeInTheDocument();
    expect(view.queryByRole('heading', { level: 1 })).not.toBeInTheDocument();
    expect(root.textContent).not.toMatch(/\d+(\.\d+)? hours|\d+ days?/);
    // Ids of its own: none can match one of the shell's frame around it.
    const ids = [...root.querySelectorAll('[id]')].map((element) => element.id);
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(id).toContain('first-frame-analytics-');
  });
});
