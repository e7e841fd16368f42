import type { AgentCaller } from "../modules/auth/caller";
import type { OutboxEvent } from "../modules/messaging/model";

/**
 * What reaches the tablets over /api/v1/events. Each event says whose it is: a print job's
 * shop, or the shop a gun is kept for (null: a gun every shop on the box shares).
 */
export type BoxEvent =
  | { type: "scan"; gun: string; agent_id: number | null; code: string; at: string }
  | { type: "gun"; gun: string; agent_id: number | null; status: "online" | "offline"; detail?: string; at: string }
  | { type: "print"; agent_id: number; job: number; printer: string; status: "queued" | "sending" | "done" | "failed"; error?: string | null; at: string }
  /** An outbox row changed state (issue 14). */
  | OutboxEvent;

/** A shop's tablet gets its own shop's events and the shared guns'; HQ gets every shop's. */
export function eventVisibleTo(e: BoxEvent, caller: AgentCaller): boolean {
  return caller.agent.is_hq || e.agent_id === null || e.agent_id === caller.agent.id;
}

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
