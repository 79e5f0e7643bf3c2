/** Why the app could not start, in the words the page shows. */
export const STARTUP_FAILURES = {
  config: 'Its configuration could not be loaded. Check your connection and reload the page.',
  code: 'Part of its code could not be loaded. Check your connection and reload the page.',
} as const;

/**
 * Replaces whatever #root holds (the prerendered frame, which would otherwise wait forever) with the reason the app
 * could not start. Plain DOM: none of the app's code may be there to draw it.
 */
export function renderStartupFailure(reason: keyof typeof STARTUP_FAILURES, error: unknown): void {
  console.error('Time Wallet could not start', error);
  const root = document.getElementById('root');
  if (!root) return;
  root.innerHTML =
    '<main style="max-width:32rem;margin:15vh auto;padding:1rem;font-family:system-ui"><h1>Time Wallet could not start</h1>' +
    `<p>${STARTUP_FAILURES[reason]}</p></main>`;
}
