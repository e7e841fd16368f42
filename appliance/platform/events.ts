/** What reaches the tablets over /api/v1/events. */
export type BoxEvent =
  | { type: "scan"; gun: string; code: string; at: string }
  | { type: "gun"; gun: string; status: "online" | "offline"; detail?: string; at: string }
  | { type: "state"; ids: number[]; state: string; at: string }
  | { type: "print"; job: number; printer: string; status: "queued" | "sending" | "done" | "failed"; error?: string | null; at: string };

type Listener = (e: BoxEvent) => void;

/**
 * An in-process publish/subscribe bus: drivers publish (a scan from a gun wired to the box),
 * the events route streams to each tablet what it subscribed to.
 */
export function createEventBus() {
  const listeners = new Set<Listener>();
  return {
    publish(e: BoxEvent) {
      for (const l of listeners) {
        try {
          l(e);
        } catch {
          // One broken stream must not stop the others.
        }
      }
    },
    subscribe(l: Listener): () => void {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    get size() {
      return listeners.size;
    },
  };
}
export type EventBus = ReturnType<typeof createEventBus>;
