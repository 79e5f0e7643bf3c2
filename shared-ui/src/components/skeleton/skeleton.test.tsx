import type { ReactElement } from 'react';
import { isInaccessible, render } from '@testing-library/react';
import { Skeleton } from './skeleton';

const renderBlocks = (ui: ReactElement) => {
  const { container } = render(ui);
  const skeleton = container.firstElementChild as HTMLElement;
  return { skeleton, blocks: [...skeleton.children] as HTMLElement[] };
};

describe('Skeleton', () => {
  it('is invisible to screen readers', () => {
    const { skeleton, blocks } = renderBlocks(<Skeleton count={2} />);
    expect(isInaccessible(skeleton)).toBe(true);
    expect(blocks.every((block) => isInaccessible(block))).toBe(true);
  });

  it('stacks one block per placeholder row', () => {
    expect(renderBlocks(<Skeleton count={3} />).blocks).toHaveLength(3);
  });

  it('takes the size of the content it stands for', () => {
    const { blocks } = renderBlocks(<Skeleton width={240} height="3rem" radius="1rem" />);
    expect(blocks).toHaveLength(1);
    expect(blocks[0]).toHaveStyle({ width: '240px', height: '3rem', borderRadius: '1rem' });
  });
});
