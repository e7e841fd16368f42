import type { EventBus } from "../../platform/events";
import type { AgentCaller } from "../auth/caller";
import type { OutboxEvent } from "../messaging/model";

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

/** The box's one bus of tablet events (platform/events.ts carries them). */
export type BoxEventBus = EventBus<BoxEvent>;

/** A shop's tablet gets its own shop's events and the shared guns'; HQ gets every shop's. */
export function eventVisibleTo(e: BoxEvent, caller: AgentCaller): boolean {
  return caller.agent.is_hq || e.agent_id === null || e.agent_id === caller.agent.id;
}
