// The listeners of a small module-level store read with React's useSyncExternalStore: `subscribe`
// adds one and returns its removal, `emit` tells each that the store changed (a copy of the set,
// so a listener may unsubscribe while being told).

export type Listener = () => void;

export function listenerSet(): { subscribe: (l: Listener) => () => void; emit: () => void } {
  const listeners = new Set<Listener>();
  return {
    subscribe(l) {
      listeners.add(l);
      return () => {
        listeners.delete(l);
      };
    },
    emit() {
      for (const l of [...listeners]) l();
    },
  };
}
