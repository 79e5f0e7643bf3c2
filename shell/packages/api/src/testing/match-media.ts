/**
 * Gives jsdom (which has none) a window.matchMedia whose queries match as `matches` says, never changing: a phone is
 * `stubMatchMedia((query) => query === '(max-width: 640px)')`. react-hot-toast asks it whether motion is reduced.
 */
export function stubMatchMedia(matches: (query: string) => boolean): void {
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    value: (query: string) => ({
      matches: matches(query),
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }),
  });
}
