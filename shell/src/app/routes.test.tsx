import { isValidElement, type ReactElement, type ReactNode } from 'react';
import type { RouteObject } from 'react-router-dom';
import { AboutPage } from '../features/about/about-page';
import { RemotePage } from '../features/remotes/remote-page';
import { AppLayout } from '../features/layout/app-layout';
import { GuestOnly, RequireAuth, RequireConfirmedSession } from '../features/session/guards';
import { PAGES, remotePageForPath, pageNamed } from '../lib/pages';
import { routes } from './routes';

interface FoundPage {
  name: string;
  /** The components wrapping the page, outermost first (guards and the layout). */
  wrappers: unknown[];
}

/** The remote page an element renders, looking through wrappers such as guards. */
function remotePageIn(node: ReactNode, wrappers: unknown[]): FoundPage | null {
  if (!isValidElement(node)) return null;
  const element = node as ReactElement<{ name?: string; children?: ReactNode }>;
  if (element.type === RemotePage) return { name: element.props.name ?? '', wrappers };
  return remotePageIn(element.props.children, [...wrappers, element.type]);
}

function pagesByPath(list: RouteObject[], wrappers: unknown[] = []): Record<string, FoundPage> {
  const found: Record<string, FoundPage> = {};
  for (const route of list) {
    const page = remotePageIn(route.element, wrappers);
    if (page && route.path) found[route.path] = page;
    const element = route.element as ReactElement | undefined;
    const inner = !route.path && element ? [...wrappers, element.type] : wrappers;
    Object.assign(found, pagesByPath(route.children ?? [], inner));
  }
  return found;
}

const routed = pagesByPath(routes);

describe('the shell routes every page of the registry and nothing else', () => {
  it('has one route per registry page, at its path', () => {
    expect(Object.fromEntries(Object.entries(routed).map(([path, { name }]) => [path, name]))).toEqual(
      Object.fromEntries(PAGES.map((page) => [page.path, page.name])),
    );
  });

  it.each(PAGES.map((page) => [page.name, page] as const))(
    '%s sits behind the guard and layout its entry names',
    (_name, page) => {
      const { wrappers } = routed[page.path]!;
      expect(wrappers.includes(GuestOnly)).toBe(page.access === 'guest');
      expect(wrappers.includes(RequireAuth)).toBe(page.access === 'signed-in' || page.access === 'confirmed');
      expect(wrappers.includes(RequireConfirmedSession)).toBe(page.access === 'confirmed');
      expect(wrappers.includes(AppLayout)).toBe(page.layout);
    },
  );

  it("keeps the shell's own About page inside the layout, behind sign-in", () => {
    const trail = (list: RouteObject[], path: string, wrappers: unknown[] = []): unknown[] | null => {
      for (const route of list) {
        const element = route.element as ReactElement | undefined;
        if (route.path === path) return [...wrappers, element?.type];
        const found = trail(route.children ?? [], path, element ? [...wrappers, element.type] : wrappers);
        if (found) return found;
      }
      return null;
    };
    const about = trail(routes, '/app/about');
    expect(about?.at(-1)).toBe(AboutPage);
    expect(about).toEqual(expect.arrayContaining([RequireAuth, AppLayout]));
  });

  it('finds the page for a URL, ignoring a trailing slash, and nothing for shell pages', () => {
    expect(remotePageForPath('/app/wallet/')).toBe(pageNamed('wallet'));
    expect(remotePageForPath('/auth/login')).toBe(pageNamed('login'));
    expect(remotePageForPath('/')).toBeNull();
    expect(remotePageForPath('/app/unknown')).toBeNull();
  });
});
