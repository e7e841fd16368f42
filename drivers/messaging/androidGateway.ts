import { type Channel, ChannelError, type LookupResult, type OutgoingMessage, type SendResult } from "./channel";

/**
 * SMS through an Android phone in the shop running "SMS Gateway for Android"
 * (capcom6/android-sms-gateway) in its LOCAL server mode: an HTTP API on the phone, on the
 * shop's LAN, with basic auth (the user name and password the app shows).
 *
 * - POST /message `{ id, message, phoneNumbers }` answers 202 with the gateway's id. We pass
 *   the outbox key as `id`: the app stores messages under that id and refuses a second one
 *   with the same id (409 Conflict), so a POST retried after a lost answer never makes a
 *   second SMS; a 409 therefore means "already taken", which is a success.
 * - GET /message/{id} answers the state: Pending, Processed (handed to Android), Sent,
 *   Delivered or Failed; 404 when the phone never took it.
 * - GET /health (no auth) tells whether the app is well; GET /device (auth) proves the
 *   credentials. Both are what check() asks.
 */
export interface AndroidGatewayOptions {
  /** http://user:pass@192.168.1.40:8080 (the path, if any, is kept as a prefix). */
  url: string;
  /** Per request (default 10 s). */
  timeoutMs?: number;
  /**
   * Refuses a host that is not on the shop's network (drivers/devices.ts lanAddress): called
   * before every connection so a name cannot later lead elsewhere. Throws ChannelError.
   */
  checkHost?: (host: string) => Promise<void>;
}

const STATES: Record<string, LookupResult> = {
  Pending: "pending",
  Processed: "pending",
  Sent: "sent",
  Delivered: "sent",
  Failed: "failed",
};

export function androidGatewayChannel(o: AndroidGatewayOptions): Channel {
  const u = new URL(o.url);
  const auth = `Basic ${Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString("base64")}`;
  const base = `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, "")}`;
  const where = `the phone at ${u.host}`;
  const timeoutMs = o.timeoutMs ?? 10_000;

  async function call(method: string, path: string, body: unknown, signal?: AbortSignal, authed = true): Promise<Response> {
    await o.checkHost?.(u.hostname.replace(/^\[|\]$/g, ""));
    const timeout = AbortSignal.timeout(timeoutMs);
    const headers: Record<string, string> = authed ? { authorization: auth } : {};
    if (body !== undefined) headers["content-type"] = "application/json";
    try {
      const res = await fetch(base + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        redirect: "manual",
      });
      if (res.status === 401 || res.status === 403) {
        await res.body?.cancel();
        throw new ChannelError("The phone refused the user name or password", true);
      }
      return res;
    } catch (e) {
      if (e instanceof ChannelError) throw e;
      if (timeout.aborted) throw new ChannelError(`${where} did not answer within ${Math.round(timeoutMs / 1000)} s`);
      if (signal?.aborted) throw new ChannelError("Stopped before the phone answered");
      throw new ChannelError(`Cannot reach ${where}: is it on the shop's Wi-Fi with the app's local server started? (${plain(e)})`);
    }
  }

  /** The gateway's own error text ({ message }) or the HTTP status, cut short. */
  async function reason(res: Response): Promise<string> {
    const text = await res.text().catch(() => "");
    let msg = "";
    try {
      msg = String((JSON.parse(text) as { message?: unknown }).message ?? "");
    } catch {
      msg = text;
    }
    return `${res.status}${msg ? ` ${msg.replace(/\s+/g, " ").slice(0, 200)}` : ""}`;
  }

  return {
    kind: "sms",
    label: `SMS via Android phone ${u.host}`,

    async send(msg: OutgoingMessage, signal?: AbortSignal): Promise<SendResult> {
      const res = await call("POST", "/message", { id: msg.key, message: msg.text, phoneNumbers: [msg.to], withDeliveryReport: true }, signal);
      if (res.status === 202 || res.status === 200 || res.status === 201) {
        const body = (await res.json().catch(() => ({}))) as { id?: unknown };
        return { gatewayId: typeof body.id === "string" ? body.id : msg.key };
      }
      // The phone already has a message with this id: an earlier attempt reached it.
      if (res.status === 409) {
        await res.body?.cancel();
        return { gatewayId: msg.key };
      }
      const why = await reason(res);
      if (res.status === 400 || res.status === 422) throw new ChannelError(`The phone refused the message: ${why}`, true);
      throw new ChannelError(`The phone could not take the message: ${why}`);
    },

    async lookup(key: string, signal?: AbortSignal): Promise<LookupResult> {
      const res = await call("GET", `/message/${encodeURIComponent(key)}`, undefined, signal);
      if (res.status === 404) {
        await res.body?.cancel();
        return "unknown";
      }
      if (!res.ok) throw new ChannelError(`The phone could not say what became of the message: ${await reason(res)}`);
      const body = (await res.json().catch(() => ({}))) as { state?: unknown };
      return STATES[String(body.state)] ?? "unknown";
    },

    async check(signal?: AbortSignal): Promise<void> {
      const health = await call("GET", "/health", undefined, signal, false);
      if (health.status >= 500) throw new ChannelError(`The phone's app reports a problem: ${await reason(health)}`);
      await health.body?.cancel();
      const device = await call("GET", "/device", undefined, signal);
      if (!device.ok) throw new ChannelError(`The phone answered ${await reason(device)}`);
      await device.body?.cancel();
    },
  };
}

/** A network error in a few plain words (no stack, no URL: it may hold the password). */
function plain(e: unknown): string {
  const err = e as { code?: string; message?: string };
  if (err.code === "ECONNREFUSED" || /refused/i.test(err.message ?? "")) return "connection refused";
  if (err.code === "ENOTFOUND" || /resolve|getaddrinfo/i.test(err.message ?? "")) return "name not found";
  if (err.code === "EHOSTUNREACH" || err.code === "ENETUNREACH") return "no route to the phone";
  if (err.code === "ECONNRESET") return "connection dropped";
  return (err.code ?? err.message ?? "network error")
    .toString()
    .replace(/https?:\/\/\S+/g, "")
    .slice(0, 80);
}
