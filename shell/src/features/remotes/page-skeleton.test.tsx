import { render, screen } from '@testing-library/react';
import { pageNamed } from '../../lib/pages';
import { renderAt } from '../../testing/render';
import { PageSkeleton } from './page-skeleton';

describe('PageSkeleton', () => {
  it("shows a full-screen page's registry heading while it loads", () => {
    render(<PageSkeleton page={pageNamed('login')} />);
    const loading = screen.getByLabelText('Loading page');
    expect(loading).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('heading', { level: 1, name: 'Welcome Back' })).toBeInTheDocument();
  });

  it('names a full-screen page without a heading by its registry title', () => {
    render(<PageSkeleton page={pageNamed('forgotPassword')} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Forgot password' })).toBeInTheDocument();
  });

  it("opens a signed-in page with the registry's heading and subtitle, in the header the page itself draws", () => {
    render(<PageSkeleton page={pageNamed('wallet')} />);
    expect(screen.getByLabelText('Loading page')).toBeInTheDocument();
    // Drawn for the eye; announced as the busy "Loading page" region, not as the page's heading.
    expect(screen.queryByRole('heading')).not.toBeInTheDocument();
    expect(
      screen.getByRole('heading', { level: 1, name: 'Manage Time Wallet', hidden: true }),
    ).toBeInTheDocument();
    expect(screen.getByText('Balance habits, reminders, events, activites')).toBeInTheDocument();
  });

  it('gives a full-screen signed-in page (the calendar) its header, under its bar: the way back and the theme', () => {
    renderAt(<PageSkeleton page={pageNamed('calendar')} />, '/app/calendar');
    expect(screen.getByRole('link', { name: 'Back to Wallet' })).toHaveAttribute('href', '/app/wallet');
    expect(screen.getByRole('group', { name: 'Theme' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Calendar', hidden: true })).toBeInTheDocument();
    expect(
      screen.getByText('Select a time range to add an event; drag or resize an event to move it.'),
    ).toBeInTheDocument();
  });
});
