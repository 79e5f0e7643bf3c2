import { act, render, screen } from '@testing-library/react';
import toast from 'react-hot-toast';
import { AppToaster } from './app-toaster';
import { stubMatchMedia } from '@time-wallet/api/testing';

// jsdom has no matchMedia: the toaster asks it for the screen's width (and react-hot-toast whether motion is reduced).
let narrowScreen = false;
beforeEach(() => {
  narrowScreen = false;
  stubMatchMedia((query) => query.includes('max-width') && narrowScreen);
});
afterEach(() => act(() => toast.remove()));

/** The element react-hot-toast positions for one toast: pinned to the container's top or bottom edge. */
const placementOf = (message: string) =>
  screen.getByText(message).closest<HTMLElement>('[style*="position"]');

describe('AppToaster', () => {
  it('shows toasts at the top centre of a wide screen, between the title and the actions at the right', () => {
    render(<AppToaster />);
    act(() => {
      toast.success('Category added successfully!');
    });
    const placement = placementOf('Category added successfully!');
    expect(placement?.style.top).toBe('0px');
    expect(placement?.style.bottom).toBe('');
    expect(placement?.style.justifyContent).toBe('center');
  });

  it('raises toasts from the bottom centre of a phone', () => {
    narrowScreen = true;
    render(<AppToaster />);
    act(() => {
      toast.success('Task added successfully!');
    });
    const placement = placementOf('Task added successfully!');
    expect(placement?.style.bottom).toBe('0px');
    expect(placement?.style.top).toBe('');
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
