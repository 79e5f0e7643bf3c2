import registry from '@time-wallet/devkit/registry.json';

/**
 * A page's heading as the registry (devkit/registry.json) states it. The shell prerenders the same words into the
 * page's first HTML before this remote has loaded, so reading them from one place keeps the two the same: the heading
 * the HTML paints is the one this page then draws, at the same size, and stays the page's largest paint.
 */
export function registryHeading(pageName: string): string {
  for (const remote of registry.remotes) {
    for (const page of remote.pages) {
      const heading = 'heading' in page ? page.heading : undefined;
      if (page.name === pageName && heading) return heading;
    }
  }
  throw new Error(`The registry gives page ${pageName} no heading`);
}
