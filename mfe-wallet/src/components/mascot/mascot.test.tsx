import { render, screen } from '@testing-library/react';
import { Mascot } from './mascot';
import type { MascotMood } from '../../lib/mood';

const MOODS: MascotMood[] = ['neutral', 'happy', 'angry', 'sleepy'];

describe('Mascot', () => {
  it.each([
    ['neutral', 'Mascot looking calm'],
    ['happy', 'Mascot looking cheerful'],
    ['angry', 'Mascot looking upset'],
    ['sleepy', 'Mascot looking sleepy'],
  ] as const)('is an image named after its %s mood', (mood, name) => {
    render(<Mascot mood={mood} />);
    expect(screen.getByRole('img', { name })).toBeInTheDocument();
  });

  it('takes the name it is given', () => {
    render(<Mascot mood="sleepy" title="No pending tasks mascot" />);
    expect(screen.getByRole('img', { name: 'No pending tasks mascot' })).toBeInTheDocument();
  });

  it('draws a different picture for every mood', () => {
    const drawings = MOODS.map((mood) => {
      const { unmount } = render(<Mascot mood={mood} title="Mascot" />);
      const drawing = screen
        .getByRole('img', { name: 'Mascot' })
        .innerHTML.replace(/<title[^>]*>.*?<\/title>/, '');
      unmount();
      return drawing;
    });
    expect(new Set(drawings).size).toBe(MOODS.length);
  });

  it('is drawn at the size asked for', () => {
    render(<Mascot mood="happy" size={64} />);
    const mascot = screen.getByRole('img', { name: 'Mascot looking cheerful' });
    expect(mascot).toHaveAttribute('width', '64');
    expect(mascot).toHaveAttribute('height', '64');
  });
});
