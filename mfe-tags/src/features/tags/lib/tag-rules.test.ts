import { swatchesFor } from './palette';
import {
  colourForNewTag,
  colourOfTag,
  TAG_NAME_REQUIRED,
  TAG_NAME_TOO_LONG,
  tagNameError,
} from './tag-rules';

describe('tagNameError', () => {
  it('asks for a name when there is none or only spaces', () => {
    expect(tagNameError('')).toBe(TAG_NAME_REQUIRED);
    expect(tagNameError('   ')).toBe(TAG_NAME_REQUIRED);
  });

  it('refuses more than 40 characters, not counting spaces around the name', () => {
    expect(tagNameError('x'.repeat(41))).toBe(TAG_NAME_TOO_LONG);
    expect(tagNameError(`  ${'x'.repeat(40)}  `)).toBeNull();
    expect(TAG_NAME_TOO_LONG).toBe('The name must not exceed 40 characters.');
  });

  it('accepts an ordinary name', () => {
    expect(tagNameError('Deep Work')).toBeNull();
  });
});

describe('colourForNewTag', () => {
  it('starts a new user on the brand green', () => {
    expect(colourForNewTag([])).toBe('#2D967C');
  });

  it('picks the first palette colour no tag uses yet, whatever its spelling', () => {
    expect(colourForNewTag([{ color: '#2d967c' }, { color: '#2F80ED' }])).toBe('#7C6AE6');
  });

  it('falls back to the default green when every palette colour is taken', () => {
    const everyColour = swatchesFor([]).map((color) => ({ color }));
    expect(colourForNewTag(everyColour)).toBe('#2D967C');
  });
});

describe('colourOfTag', () => {
  it("spells a tag's colour as the swatches do, and gives a tag without one the default green", () => {
    expect(colourOfTag('#abc')).toBe('#AABBCC');
    expect(colourOfTag(undefined)).toBe('#2D967C');
    expect(colourOfTag(' ')).toBe('#2D967C');
  });
});
