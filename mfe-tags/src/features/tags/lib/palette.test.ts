import { contrastRatio } from '@time-wallet/shared-ui/testing';
import { DEFAULT_PALETTE, normalizeColor, swatchesFor } from './palette';

describe('swatchesFor', () => {
  it('offers the palette when no tag exists yet, starting with the brand green', () => {
    expect(swatchesFor([])).toEqual([...DEFAULT_PALETTE]);
    expect(DEFAULT_PALETTE[0]).toBe('#2D967C');
  });

  it('puts the colours in use first, once each, in first-use order', () => {
    const swatches = swatchesFor([
      { color: '#123456' },
      { color: '#2d967c' },
      { color: '#123456' },
      { color: '#abc' },
      { color: null },
      {},
      { color: '  ' },
    ]);
    expect(swatches.slice(0, 3)).toEqual(['#123456', '#2D967C', '#AABBCC']);
    expect(swatches.filter((color) => color === '#2D967C')).toHaveLength(1);
    expect(swatches).toHaveLength(3 + DEFAULT_PALETTE.length - 1);
  });
});

describe('normalizeColor', () => {
  it('spells hex colours as six upper-case digits', () => {
    expect(normalizeColor(' #2d967c ')).toBe('#2D967C');
    expect(normalizeColor('#fa0')).toBe('#FFAA00');
    expect(normalizeColor('Teal')).toBe('teal');
  });
});

describe('DEFAULT_PALETTE', () => {
  it('has about ten distinct colours', () => {
    expect(new Set(DEFAULT_PALETTE.map(normalizeColor)).size).toBe(DEFAULT_PALETTE.length);
    expect(DEFAULT_PALETTE.length).toBeGreaterThanOrEqual(8);
  });

  it.each(DEFAULT_PALETTE)('%s stands out (>= 3:1) on the light and the dark surface', (color) => {
    expect(contrastRatio(color, '#FFFFFF')).toBeGreaterThanOrEqual(3);
    expect(contrastRatio(color, '#17201D')).toBeGreaterThanOrEqual(3);
  });
});
