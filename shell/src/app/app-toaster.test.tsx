import { act, render, screen } from '@testing-library/react';
import toast from 'react-hot-toast';
import { AppToaster } from './app-toaster';

// react-hot-toast asks matchMedia whether motion is reduced; jsdom has none.
beforeAll(() => {
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    value: (query: string) => ({ matches: false, media: query, addEventListener: () => undefined }),
  });
});
afterEach(() => act(() => toast.remove()));

/** The element react-hot-toast positions for one toast: pinned to the container's top or bottom edge. */
const placementOf = (message: string) =>
  screen.getByText(message).closest<HTMLElement>('[style*="position"]');

describe('AppToaster', () => {
  it('shows toasts at the bottom centre, clear of the action bars at the top of every page', () => {
    render(<AppToaster />);
    act(() => {
      toast.success('Category added successfully!');
    });
    const placement = placementOf('Category added successfully!');
    expect(placement?.style.bottom).toBe('0px');
    expect(placement?.style.top).toBe('');
    expect(placement?.style.justifyContent).toBe('center');
  });

  it('announces each toast politely without taking focus', () => {
    render(
      <>
        <button type="button">Add Tag</button>
        <AppToaster />
      </>,
    );
    screen.getByRole('button', { name: 'Add Tag' }).focus();
    act(() => {
      toast('Event "Standup" deleted');
    });
    expect(screen.getByRole('status')).toHaveAttribute('aria-live', 'polite');
    expect(screen.getByRole('status')).toHaveTextContent('Event "Standup" deleted');
    expect(screen.getByRole('button', { name: 'Add Tag' })).toHaveFocus();
  });
});
