import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const axeSource = require('fs').readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Runs axe-core on the page (evaluated through the DevTools protocol: the product's CSP rightly refuses inline
 * scripts) as it is now and returns the serious and critical violations, readably.
 */
export async function seriousViolations(page) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const results = await page.evaluate(async () =>
    window.axe.run(document, {
      resultTypes: ['violations'],
      runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'],
      // Experimental in axe, so off unless asked for: a control's accessible name must contain its visible text
      // (WCAG 2.5.3), or a person using speech input cannot name it.
      rules: { 'label-content-name-mismatch': { enabled: true } },
    }),
  );
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      rule: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.slice(0, 5).map((node) => node.target.join(' ')),
    }));
}
