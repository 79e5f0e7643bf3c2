import { render } from '@testing-library/react';
import { useFirstAnswerDeferred } from './use-first-answer-deferred';

type Result = { data?: string; isLoading: boolean };

describe('useFirstAnswerDeferred', () => {
  it('draws the first answer in a later, deferred draw, and every answer after it at once', () => {
    const drawn: { given: Result; shown: Result }[] = [];
    function List({ result }: { result: Result }) {
      drawn.push({ given: result, shown: useFirstAnswerDeferred(result) });
      return null;
    }
    const loading = { isLoading: true };
    const first = { data: 'first', isLoading: false };
    const second = { data: 'second', isLoading: false };

    const view = render(<List result={loading} />);
    expect(drawn.at(-1)!.shown).toBe(loading);

    drawn.length = 0;
    view.rerender(<List result={first} />);
    // The urgent draw keeps the loading state; the deferred one brings the answer.
    expect(drawn[0]).toEqual({ given: first, shown: loading });
    expect(drawn.at(-1)).toEqual({ given: first, shown: first });

    drawn.length = 0;
    view.rerender(<List result={second} />);
    // Once there is data, no draw shows an older answer than it is given.
    expect(drawn.length).toBeGreaterThan(0);
    for (const draw of drawn) expect(draw.shown).toBe(draw.given);
  });
});
