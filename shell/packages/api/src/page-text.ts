import registry from '@time-wallet/devkit/registry.json';

/** The words a page opens with: its <h1> and the line under it. */
export interface PageText {
  heading: string;
  subtitle?: string;
}

/**
 * A page's heading (else its title) and subtitle as the registry (devkit/registry.json) states them. The shell
 * prerenders these words into the page's first HTML before the remote has loaded, and the remote's page draws them
 * from here, so both are one fact: the text the HTML paints is the text the page then draws, at the same size, and
 * it stays the page's largest paint. Bundled into each app at build time (not a shared module), so a remote never
 * depends on the running shell having this export.
 */
export function pageText(pageName: string): PageText {
  for (const remote of registry.remotes) {
    for (const page of remote.pages) {
      if (page.name !== pageName) continue;
      return {
        heading: 'heading' in page && page.heading ? page.heading : page.title,
        ...('subtitle' in page && page.subtitle ? { subtitle: page.subtitle } : {}),
      };
    }
  }
  throw new Error(`The registry lists no page ${pageName}`);
}
