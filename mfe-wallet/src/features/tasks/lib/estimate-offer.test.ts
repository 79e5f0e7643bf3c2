import { estimateOffer } from './estimate-offer';

const work = (tasks: number, ratio: number) => ({
  categoryId: 'c2',
  tasks,
  estimateMinutes: 600,
  trackedMinutes: Math.round(600 * ratio),
  ratio,
});

describe('estimateOffer', () => {
  it('offers the typed estimate times the ratio, in whole minutes, the ratio said with one decimal', () => {
    expect(estimateOffer([work(5, 1.4)], 'c2', 60)).toEqual({ ratio: '1.4', minutes: 84 });
    expect(estimateOffer([work(8, 1.37)], 'c2', 45)).toEqual({ ratio: '1.4', minutes: 62 });
  });

  it('needs at least 5 tasks of the category', () => {
    expect(estimateOffer([work(4, 1.4)], 'c2', 60)).toBeNull();
    expect(estimateOffer([work(5, 1.4)], 'c1', 60)).toBeNull();
  });

  it('offers nothing that changes nothing or is not 1 to 1440 minutes', () => {
    expect(estimateOffer([work(9, 1.004)], 'c2', 60)).toBeNull();
    expect(estimateOffer([work(9, 3)], 'c2', 600)).toBeNull();
    expect(estimateOffer([work(9, 0)], 'c2', 60)).toBeNull();
  });
});
