import { render, screen } from '@testing-library/react';
import { pageNamed } from '../../lib/pages';
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

  it('keeps a bar for the heading of a page inside the layout', () => {
    render(<PageSkeleton page={pageNamed('wallet')} />);
    expect(screen.getByLabelText('Loading page')).toBeInTheDocument();
    expect(screen.queryByRole('heading')).not.toBeInTheDocument();
  });
});
