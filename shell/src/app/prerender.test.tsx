import { within } from '@testing-library/react';
import { PAGES } from '../lib/pages';
import { prerender, type PrerenderedPage } from './prerender';

/** A prerendered page's markup in the document, to be read the way a person (or a test) reads the app. */
function shown(page: PrerenderedPage): HTMLElement {
  const root = document.createElement('div');
  root.innerHTML = page.html;
  document.body.replaceChildren(root);
  return root;
}

describe('prerender', () => {
  const pages = prerender();
  const byPath = (path: string) => pages.find((page) => page.paths.includes(path));

  it('writes the whole landing page for / and /landing, with a plain link into the app and no script', () => {
    const landing = byPath('/')!;
    expect(landing).toBe(byPath('/landing'));
    expect(landing).toMatchObject({ file: 'landing.html', app: false });
    const view = within(shown(landing));
    expect(
      view.getByRole('heading', { level: 1, name: 'Organize everything in your life' }),
    ).toBeInTheDocument();
    expect(view.getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/auth/login');
    expect(view.getByText('450k people have joined')).toBeInTheDocument();
    expect(view.getByRole('heading', { name: 'Finish AI & ML Report' })).toBeInTheDocument();
    expect(landing.html).not.toMatch(/<script/i);
    // The inactivity notice needs this visit's session, which a static page cannot know.
    expect(view.queryByRole('status')).not.toBeInTheDocument();
  });

  it("gives each guest page the shell's loading frame, with its registry heading, for the app to take over", () => {
    const guests = PAGES.filter((page) => page.access === 'guest');
    expect(guests.map((page) => [page.path, page.heading])).toEqual([
      ['/auth/login', 'Welcome Back'],
      ['/auth/register', 'Create Account'],
    ]);
    for (const page of guests) {
      const prerendered = byPath(page.path)!;
      expect(prerendered).toMatchObject({ file: `${page.path.slice(1)}.html`, app: true });
      const frame = within(shown(prerendered));
      expect(frame.getByRole('heading', { level: 1, name: page.heading })).toBeInTheDocument();
      // No form before the app: nothing can be submitted before its code can handle it.
      expect(prerendered.html).not.toMatch(/<(form|input|button)\b/i);
    }
  });

  it('prerenders nothing else: every other path gets the app', () => {
    expect(pages.flatMap((page) => page.paths).sort()).toEqual(
      ['/', '/auth/login', '/auth/register', '/landing'].sort(),
    );
  });
});
