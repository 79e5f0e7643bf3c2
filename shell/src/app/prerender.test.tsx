import { within } from '@testing-library/react';
import { FIRST_FRAME_SLOT, isSignedInPage, PAGES } from '../lib/pages';
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
      expect(prerendered.html).not.toContain(FIRST_FRAME_SLOT);
      const frame = within(shown(prerendered));
      expect(frame.getByRole('heading', { level: 1, name: page.heading })).toBeInTheDocument();
      // No form before the app: nothing can be submitted before its code can handle it.
      expect(prerendered.html).not.toMatch(/<(form|input|button)\b/i);
    }
  });

  it('gives each signed-in page with a subtitle its first frame: navigation, heading and subtitle, inert', () => {
    const signedIn = PAGES.filter((page) => isSignedInPage(page) && page.subtitle);
    expect(signedIn.map((page) => page.name).sort()).toEqual(
      ['account', 'analytics', 'calendar', 'tags', 'today', 'wallet', 'yesterday'].sort(),
    );
    for (const page of signedIn) {
      const prerendered = byPath(page.path)!;
      expect(prerendered).toMatchObject({ file: `${page.path.slice(1)}.html`, app: true });
      const root = shown(prerendered);
      const frame = within(root);
      expect(frame.getByRole('heading', { level: 1, name: page.heading, hidden: true })).toBeInTheDocument();
      expect(frame.getByText(page.subtitle!)).toBeInTheDocument();
      // Inside the layout, the side navigation and a phone's tab bar (CSS shows one) are there from the first paint.
      for (const name of ['Main', 'Tab bar']) {
        if (page.layout) expect(frame.getByRole('navigation', { name })).toBeInTheDocument();
        else expect(frame.queryByRole('navigation', { name })).not.toBeInTheDocument();
      }
      // Nothing in it can be used before the app has replaced it.
      expect(root.firstElementChild).toHaveAttribute('inert');
      expect(prerendered.html).not.toMatch(/<form\b/i);
      // A page its remote draws a first frame of (the registry says) has one slot for it, holding the placeholders;
      // the others none, so the static server asks no remote for a frame it does not have.
      const slots = root.querySelectorAll(`[${FIRST_FRAME_SLOT}]`);
      expect(slots).toHaveLength(page.firstFrame ? 1 : 0);
      if (!page.firstFrame) continue;
      expect(slots[0]).toHaveAttribute(FIRST_FRAME_SLOT, `${page.remote}/${page.name}`);
      expect(slots[0]).toHaveAttribute('aria-hidden', 'true');
      // Spans only, so the server finds the slot's end at its first </div>.
      expect(slots[0].querySelector('div')).toBeNull();
      expect(slots[0].children.length).toBeGreaterThan(0);
    }
    expect(signedIn.filter((page) => page.firstFrame).map((page) => page.name)).toEqual(['analytics']);
    const today = within(shown(byPath('/app/today')!));
    for (const name of ['Tabs', 'Tab bar'])
      expect(
        within(today.getByRole('navigation', { name })).getByRole('link', { name: 'Today' }),
      ).toHaveAttribute('aria-current', 'page');
  });

  it('prerenders nothing else: every other path gets the app', () => {
    const signedIn = PAGES.filter((page) => isSignedInPage(page) && page.subtitle).map((page) => page.path);
    expect(pages.flatMap((page) => page.paths).sort()).toEqual(
      ['/', '/auth/login', '/auth/register', '/landing', ...signedIn].sort(),
    );
    expect(byPath('/app/logout')).toBeUndefined();
  });
});
