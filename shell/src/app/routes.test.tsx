import { isValidElement, type ReactElement, type ReactNode } from 'react';
import type { RouteObject } from 'react-router-dom';
import { RemotePage } from '../features/remotes/remote-page';
import { PAGE_PATHS, remotePageForPath, REMOTE_PAGES } from '../features/remotes/remote-pages';
import { routes } from './routes';

/** The remote page an element renders, looking through wrappers such as guards. */
function remotePageIn(node: ReactNode): string | null {
  if (!isValidElement(node)) return null;
  const element = node as ReactElement<{ name?: string; children?: ReactNode }>;
  if (element.type === RemotePage) return element.props.name ?? null;
  return remotePageIn(element.props.children);
}

function pagesByPath(list: RouteObject[], base = ''): Record<string, string> {
  const found: Record<string, string> = {};
  for (const route of list) {
    const path = route.path
      ? route.path.startsWith('/')
        ? route.path
        : `${base.replace(/\/$/, '')}/${route.path}`
      : base;
    const page = remotePageIn(route.element);
    if (page) found[path] = page;
    Object.assign(found, pagesByPath(route.children ?? [], path));
  }
  return found;
}

describe('the early preload table', () => {
  it('names the same remote page for each URL as the routes do', () => {
    expect(PAGE_PATHS).toEqual(pagesByPath(routes));
  });

  it('finds the page for a URL, ignoring a trailing slash, and nothing for shell pages', () => {
    expect(remotePageForPath('/app/wallet/')).toBe(REMOTE_PAGES.wallet);
    expect(remotePageForPath('/auth/login')).toBe(REMOTE_PAGES.login);
    expect(remotePageForPath('/')).toBeNull();
    expect(remotePageForPath('/app/unknown')).toBeNull();
  });
});
