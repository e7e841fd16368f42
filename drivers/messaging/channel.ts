/**
 * How a message leaves the shop. The outbox (appliance/modules/messaging) owns the rows and
 * their states; a channel only carries one message to one recipient. Real channels: the
 * Android phone running SMS Gateway for Android, a GSM modem on the box, SMTP. Tests and the
 * fault scripts use the same channels against stand-in peers (a gateway stand-in, a socat
 * modem simulator, a local SMTP server), never a fake of this interface.
 */
export type ChannelKind = "sms" | "email";

export interface OutgoingMessage {
  /**
   * The outbox row's stable key (a UUID written with the row). It is the same on every
   * attempt, so a gateway that takes a message id can refuse a second copy, and a lookup
   * after a crash can ask what became of it.
   */
  key: string;
  /** E.164-ish phone number for SMS, an address for e-mail (checked before the row is written). */
  to: string;
  text: string;
  /** E-mail only. */
  subject?: string;
  /** E-mail only: files sent with it (an invoice's PDF). */
  attachments?: { filename: string; content: Uint8Array; contentType: string }[];
}

/** What the gateway said: its own id of the message, when it has one. */
export interface SendResult {
  gatewayId?: string;
}

/** A text a customer sent to the box's number, as a modem stores it. */
export interface IncomingSms {
  /** The sender's number as the network gave it (+35679123456). */
  from: string;
  text: string;
  /** The network's time stamp as the modem shows it ("26/11/27,10:00:00+04"): with from and text, what tells two texts apart. */
  sentAt: string;
}

/** What a channel can tell about a message it may have sent before a crash. */
export type LookupResult = "sent" | "pending" | "failed" | "unknown";

/** A send that failed. `permanent` failures are not retried (a bad number, a refused address). */
export class ChannelError extends Error {
  constructor(
    message: string,
    readonly permanent = false,
  ) {
    super(message);
    this.name = "ChannelError";
  }
}

export interface Channel {
  kind: ChannelKind;
  /** A name people read on the settings screen: "SMS via Android phone 192.168.1.40". */
  label: string;
  /** Sends one message; throws ChannelError (or any error: treated as transient). */
  send(msg: OutgoingMessage, signal?: AbortSignal): Promise<SendResult>;
  /**
   * After a crash between "sending" and "recorded": what became of the message with this key.
   * Absent when the peer cannot be asked (SMTP, a modem): the outbox then flags the row for a
   * person instead of sending it again.
   */
  lookup?(key: string, signal?: AbortSignal): Promise<LookupResult>;
  /** Checks the channel without sending to a customer (reachable, logged in, modem registered). */
  check(signal?: AbortSignal): Promise<void>;
  /**
   * Texts stored on the device (a modem): each is handed to `handle` and deleted from the device
   * once `handle` resolved, at most `max` a call. Answers how many were handled. Absent where
   * texts arrive another way (the Android gateway calls the box's webhook).
   */
  receive?(handle: (m: IncomingSms) => Promise<void>, max?: number, signal?: AbortSignal): Promise<number>;
  close?(): Promise<void>;
}
