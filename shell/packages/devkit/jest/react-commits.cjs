// A minimal stand-in for the React DevTools hook, installed before React loads (jest setupFiles), so a component test
// can ask which components drew on each commit: what `recordRenders` in @time-wallet/api/testing reads. React calls
// the hook on every commit; with nobody listening it does nothing.
//
// Which components drew is read as React DevTools reads it: a function component drew when it is new or its fiber
// carries React's PerformedWork flag; a subtree whose first child is the one of the last commit was not visited.
const PERFORMED_WORK = 0b1;
const listeners = new Set();

function nameOf(type) {
  if (typeof type === 'function') return type.displayName || type.name || null;
  return null;
}

/** The function components that drew in the commit whose tree starts at `fiber`, with how often. */
function drawnIn(fiber, drawn = new Map()) {
  for (let node = fiber; node; node = node.sibling) {
    const previous = node.alternate;
    const name = nameOf(node.type);
    if (name && (previous === null || (node.flags & PERFORMED_WORK) !== 0)) {
      // Counted by name, and by name and key for an item of a list ("DayTaskRow:t1").
      for (const label of node.key === null ? [name] : [name, `${name}:${node.key}`]) {
        drawn.set(label, (drawn.get(label) ?? 0) + 1);
      }
    }
    if (node.child && (previous === null || node.child !== previous.child)) drawnIn(node.child, drawn);
  }
  return drawn;
}

if (typeof globalThis.__REACT_DEVTOOLS_GLOBAL_HOOK__ === 'undefined') {
  let renderers = 0;
  globalThis.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    isDisabled: false,
    renderers: new Map(),
    inject() {
      renderers += 1;
      return renderers;
    },
    onCommitFiberRoot(_renderer, root) {
      if (listeners.size === 0) return;
      const drawn = drawnIn(root.current.child);
      for (const listener of listeners) listener(drawn);
    },
    onPostCommitFiberRoot() {},
    onCommitFiberUnmount() {},
    setStrictMode() {},
    checkDCE() {},
    timeWalletCommitListeners: listeners,
  };
}
