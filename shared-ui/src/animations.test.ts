import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
const { frontEndPackages, repoRoot } = jest.requireActual<{ frontEndPackages: string[]; repoRoot: string }>(
  '@time-wallet/devkit/apps',
);

/**
 * A looping animation that changes anything but transform or opacity (a moving background, a colour) is restyled and
 * repainted on the main thread in every frame, for as long as it runs: the skeletons' shimmer did that while every
 * page loaded, 20 animations on Today, each listed by Lighthouse as "Unsupported CSS Property: background-position-x".
 * Transform and opacity are animated by the compositor. This reads every stylesheet of every front-end package.
 */
const COMPOSITED = new Set(['transform', 'opacity']);

function stylesheets(): string[] {
  return frontEndPackages.flatMap((dir) =>
    readdirSync(path.join(repoRoot, dir, 'src'), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.css'))
      .map((file) => path.join(dir, 'src', file)),
  );
}

/** Each @keyframes block of a stylesheet: its name and the properties its steps set. */
function keyframesOf(css: string): { name: string; properties: string[] }[] {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
  const found = [];
  for (const match of text.matchAll(/@keyframes\s+([\w-]+)\s*\{/g)) {
    // The block ends where its braces balance.
    let depth = 1;
    let end = match.index + match[0].length;
    while (depth > 0 && end < text.length) {
      if (text[end] === '{') depth += 1;
      else if (text[end] === '}') depth -= 1;
      end += 1;
    }
    const body = text.slice(match.index + match[0].length, end - 1);
    const properties = [...body.matchAll(/([\w-]+)\s*:[^;{}]+[;}]/g)].map(([, property]) => property);
    found.push({ name: match[1], properties: [...new Set(properties)] });
  }
  return found;
}

it('reads the properties of keyframes, so a moving background is caught', () => {
  expect(
    keyframesOf(`
      /* @keyframes commented { from { color: red } } */
      @keyframes shimmer { from { background-position: 100% 0; } to { background-position: -100% 0 } }
      @keyframes spin { 50% { transform: rotate(180deg); opacity: 0.5 } }
    `),
  ).toEqual([
    { name: 'shimmer', properties: ['background-position'] },
    { name: 'spin', properties: ['transform', 'opacity'] },
  ]);
});

it('animates only transform and opacity in every stylesheet of the product', () => {
  const files = stylesheets();
  expect(files.length).toBeGreaterThan(20);
  const offenders = files.flatMap((file) =>
    keyframesOf(readFileSync(path.join(repoRoot, file), 'utf8'))
      .filter(({ properties }) => properties.some((property) => !COMPOSITED.has(property)))
      .map(({ name, properties }) => `${file}: @keyframes ${name} sets ${properties.join(', ')}`),
  );
  expect(offenders).toEqual([]);
  expect(files).toContain(path.join('shared-ui', 'src', 'components', 'skeleton', 'skeleton.module.css'));
});
