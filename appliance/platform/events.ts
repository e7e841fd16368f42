/**
 * An in-process publish/subscribe bus: drivers publish (a scan from a gun wired to the box),
 * the events route streams to each tablet what it subscribed to. What the events are is the
 * modules' business (modules/events/model.ts); the platform only carries them.
 */
export function createEventBus<E>() {
  const listeners = new Set<(e: E) => void>();
  return {
    publish(e: E) {
      for (const l of listeners) {
        try {
          l(e);
        } catch {
          // One broken stream must not stop the others.
        }
      }
    },
    subscribe(l: (e: E) => void): () => void {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    get size() {
      return listeners.size;
    },
  };
}
export type EventBus<E> = ReturnType<typeof createEventBus<E>>;
