/**
 * The subscribe-and-notify half of a small store that React reads with useSyncExternalStore
 * (the signed-in state, being offline, an update waiting).
 */
export function listeners(): { subscribe: (listener: () => void) => () => void; notify: () => void } {
  const all = new Set<() => void>();
  return {
    subscribe(listener) {
      all.add(listener);
      return () => all.delete(listener);
    },
    notify() {
      for (const listener of all) listener();
    },
  };
}
