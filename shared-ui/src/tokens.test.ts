import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contrastRatio } from './testing/contrast';

const css = readFileSync(join(__dirname, 'tokens.css'), 'utf8');

function declarationsOf(blockStart: string): Record<string, string> {
  const start = css.indexOf(blockStart);
  if (start < 0) throw new Error(`tokens.css has no block starting "${blockStart}"`);
  const body = css.slice(css.indexOf('{', start) + 1, css.indexOf('}', start));
  return Object.fromEntries(
    [...body.matchAll(/(--[\w-]+):\s*([^;]+);/g)].map(([, name, value]) => [name, value.trim()]),
  );
}

const themes = {
  light: declarationsOf(":root[data-theme='light'] {"),
  dark: declarationsOf(":root[data-theme='dark'] {"),
};

const AA_PAIRS: [foreground: string, background: string][] = [
  ['--color-text', '--color-bg'],
  ['--color-text', '--color-surface'],
  ['--color-text', '--color-surface-2'],
  ['--color-text-muted', '--color-bg'],
  ['--color-text-muted', '--color-surface'],
  ['--color-text-muted', '--color-surface-2'],
  ['--color-primary-contrast', '--color-primary'],
  ['--color-primary-contrast', '--color-primary-hover'],
  ['--color-danger-contrast', '--color-danger'],
  ['--color-danger-contrast', '--color-danger-hover'],
  ['--color-primary', '--color-surface'],
  ['--color-primary', '--color-bg'],
  ['--color-danger', '--color-surface'],
  ['--color-danger', '--color-bg'],
  ['--color-text', '--color-danger-surface'],
  ['--color-text', '--color-info-surface'],
  ['--color-text', '--color-success-surface'],
  ['--color-text', '--color-warning-surface'],
];

const NON_TEXT_PAIRS: [foreground: string, background: string][] = [
  ['--color-border-strong', '--color-surface'],
  ['--color-focus-ring', '--color-bg'],
  ['--color-focus-ring', '--color-surface'],
];

describe.each(Object.entries(themes))('%s theme', (_theme, tokens) => {
  it.each(AA_PAIRS)('%s on %s meets WCAG AA for text (4.5:1)', (foreground, background) => {
    expect(contrastRatio(tokens[foreground], tokens[background])).toBeGreaterThanOrEqual(4.5);
  });

  it.each(NON_TEXT_PAIRS)('%s on %s meets 3:1 for controls and focus', (foreground, background) => {
    expect(contrastRatio(tokens[foreground], tokens[background])).toBeGreaterThanOrEqual(3);
  });

  it('keeps the brand and imported-event colours', () => {
    expect(tokens['--color-brand']).toBe('#2d967c');
    expect(tokens['--color-imported-event']).toBe('#4f46e5');
  });
});

it('follows the system dark preference with exactly the dark theme values', () => {
  const mediaStart = css.indexOf('@media (prefers-color-scheme: dark)');
  expect(declarationsOf(":root:not([data-theme='light']):not([data-theme='dark'])")).toEqual(themes.dark);
  expect(css.indexOf(":root:not([data-theme='light'])")).toBeGreaterThan(mediaStart);
  expect(mediaStart).toBeGreaterThan(-1);
});

it('declares the same tokens in both themes', () => {
  expect(Object.keys(themes.dark).sort()).toEqual(Object.keys(themes.light).sort());
});
