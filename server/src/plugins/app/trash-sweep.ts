import fp from 'fastify-plugin';

/** How often the expired trash is swept: an entry outlives its undo hour by at most this. */
export const TRASH_SWEEP_INTERVAL_MS = 5 * 60_000;

/**
 * A delete past its undo hour could not be undone, yet its rows stayed stored until the same account deleted again,
 * maybe never. Every account's expired entries are deleted at start-up and then every few minutes. The timer does not
 * keep the process alive, and closing the app stops it and waits for a sweep under way (before the database closes).
 */
export default fp(
  async function trashSweepPlugin(app) {
    let sweeping: Promise<void> | undefined;
    const sweep = () => {
      sweeping ??= app.trashRepository
        .deleteExpired(app.now())
        .then(
          () => undefined,
          (error: unknown) =>
            app.log.warn({ err: error }, 'sweeping the expired trash failed; the next sweep retries'),
        )
        .finally(() => {
          sweeping = undefined;
        });
      return sweeping;
    };
    await sweep();
    const timer = setInterval(() => void sweep(), TRASH_SWEEP_INTERVAL_MS).unref();
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await sweeping;
    });
  },
  { name: 'trash-sweep', dependencies: ['repositories', 'clock'] },
);
