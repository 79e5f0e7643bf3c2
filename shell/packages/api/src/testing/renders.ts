/** What the jest preset's React hook (devkit/jest/react-commits.cjs) hands a listener on each commit. */
type CommitListener = (drawn: ReadonlyMap<string, number>) => void;

interface CommitHook {
  timeWalletCommitListeners?: Set<CommitListener>;
}

/**
 * Counts, from now until `stop`, how often each named function component drew (rendered): a memoised section given
 * the same props counts nothing. Only in the front-end packages' jest runs, whose preset installs the hook it reads.
 */
export function recordRenders() {
  const hook = (globalThis as { __REACT_DEVTOOLS_GLOBAL_HOOK__?: CommitHook }).__REACT_DEVTOOLS_GLOBAL_HOOK__;
  const listeners = hook?.timeWalletCommitListeners;
  if (!listeners)
    throw new Error('recordRenders needs the jest preset of @time-wallet/devkit (react-commits.cjs)');
  const counts = new Map<string, number>();
  const listener: CommitListener = (drawn) => {
    for (const [name, times] of drawn) counts.set(name, (counts.get(name) ?? 0) + times);
  };
  listeners.add(listener);
  return {
    /** How often `name` (or one item of a list, `name:key`) drew since the recording started. */
    count: (name: string) => counts.get(name) ?? 0,
    stop: () => void listeners.delete(listener),
  };
}
