import { useEffect, useRef, useState } from "react";
import { currentToken } from "../../lib/session";
import type { OutboxEvent } from "../../../appliance/modules/messaging/model";

/**
 * Follows outbox rows over /api/v1/events (the stream the print jobs and guns use; its
 * events are named by type, so these arrive as "message"). `onEvent` gets the events
 * `match` keeps; the answer says whether the stream is open, so a screen can poll
 * while it is not.
 */
export function useMessageEvents(match: (e: OutboxEvent) => boolean, onEvent: (e: OutboxEvent) => void, enabled = true): boolean {
  const [live, setLive] = useState(false);
  // The latest callbacks, so an event always reaches the screen as it is now.
  const handlers = useRef({ match, onEvent });
  handlers.current = { match, onEvent };
  useEffect(() => {
    if (!enabled) return;
    // EventSource cannot send headers: the token travels in the query (README).
    const es = new EventSource(`/api/v1/events?token=${encodeURIComponent(currentToken() ?? "")}`);
    es.addEventListener("open", () => setLive(true));
    es.addEventListener("message", (m) => {
      const e = JSON.parse((m as MessageEvent).data) as OutboxEvent;
      if (e.type === "message" && handlers.current.match(e)) handlers.current.onEvent(e);
    });
    es.onerror = () => setLive(false);
    return () => {
      es.close();
      setLive(false);
    };
  }, [enabled]);
  return live;
}
