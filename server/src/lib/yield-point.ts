/**
 * A point in a long loop where other requests may run: once this one has held the thread for `sliceMs`, it waits for
 * the event loop's next turn (an awaited query alone does not: better-sqlite3 answers within the same turn).
 */
export function yieldPoint(sliceMs = 10): () => Promise<void> {
  let sliceStart = performance.now();
  return async () => {
    if (performance.now() - sliceStart < sliceMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    sliceStart = performance.now();
  };
}
