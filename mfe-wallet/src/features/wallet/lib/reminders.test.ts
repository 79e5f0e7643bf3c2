import { showsAsCarousel } from './reminders';

describe('showsAsCarousel', () => {
  it.each([
    [1, false],
    [3, false],
    [4, true],
    [9, true],
  ])('with %i cards in total: %p', (cards, carousel) => {
    expect(showsAsCarousel(cards)).toBe(carousel);
  });
});
