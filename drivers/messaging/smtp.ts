import nodemailer from "nodemailer";
import { type Channel, ChannelError, type OutgoingMessage, type SendResult } from "./channel";

/**
 * E-mail over SMTP with nodemailer. smtps:// speaks TLS from the start (port 465); smtp://
 * with a user name must upgrade with STARTTLS before it logs in (requireTLS): a server that
 * offers no STARTTLS is refused before the password leaves the box (issue 22: AUTH PLAIN went
 * out in clear). smtp:// without a user (a relay on the LAN that needs no login) uses STARTTLS
 * when the server offers it. The server's certificate must be one the box trusts. The Message-ID is made from the outbox key,
 * so a retried send carries the same id and a mailbox (or a person) can tell it is the same
 * message. SMTP cannot be asked afterwards what became of a message: no lookup().
 */
export interface SmtpOptions {
  /** smtp://user:pass@host:port or smtps://… (checked by parseSmtpUrl). */
  url: string;
  /** "shop@example.com" or "Ironbox Mosta <shop@example.com>" (checked by parseFromAddress). */
  from: string;
  /** Connection, greeting and socket timeouts (default 15 s each). */
  timeoutMs?: number;
  /** PEM certificates trusted besides the system's (tests: the local peer's own certificate). */
  ca?: string;
}

/** Header text on one line: a subject never carries a line break into the header block. */
const oneLine = (s: string) => s.replace(/[\r\n\u2028\u2029]+/g, " ").trim();

/** The part of the From address after @, for Message-IDs; "ironbox.local" when unknown. */
function domainOf(from: string): string {
  const m = /@([A-Za-z0-9.-]+)>?\s*$/.exec(from);
  return m?.[1] ?? "ironbox.local";
}

export function smtpChannel(o: SmtpOptions): Channel {
  const u = new URL(o.url);
  const timeout = o.timeoutMs ?? 15_000;
  const transporter = nodemailer.createTransport({
    host: u.hostname.replace(/^\[|\]$/g, ""),
    port: u.port ? Number(u.port) : u.protocol === "smtps:" ? 465 : 587,
    secure: u.protocol === "smtps:",
    // A password only ever travels encrypted: no STARTTLS, no login (and no mail).
    requireTLS: !!u.username,
    ...(o.ca ? { tls: { ca: o.ca } } : {}),
    auth: u.username ? { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) } : undefined,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  });
  const domain = domainOf(o.from);
  const fromName = /^([^<]+)</.exec(o.from)?.[1]?.trim().replace(/^"|"$/g, "");

  return {
    kind: "email",
    label: `E-mail via ${u.hostname}`,

    async send(msg: OutgoingMessage, signal?: AbortSignal): Promise<SendResult> {
      if (signal?.aborted) throw new ChannelError("Stopped before the mail was sent");
      const messageId = `<${msg.key.replace(/[^A-Za-z0-9._-]/g, "")}@${domain}>`;
      try {
        const info = await transporter.sendMail({
          from: o.from,
          to: msg.to,
          subject: oneLine(msg.subject ?? fromName ?? "Message"),
          text: msg.text,
          messageId,
          textEncoding: "quoted-printable",
          ...(msg.attachments?.length
            ? { attachments: msg.attachments.map((a) => ({ filename: oneLine(a.filename), content: Buffer.from(a.content), contentType: a.contentType })) }
            : {}),
        });
        return { gatewayId: info.messageId ?? messageId };
      } catch (e) {
        throw mailError(e);
      }
    },

    async check(): Promise<void> {
      try {
        await transporter.verify();
      } catch (e) {
        throw mailError(e);
      }
    },

    async close() {
      transporter.close();
    },
  };
}

/** nodemailer's error in plain words; a refused login or address is not retried. */
function mailError(e: unknown): ChannelError {
  const err = e as { code?: string; responseCode?: number; response?: string; message?: string };
  const said = (err.response ?? err.message ?? "").replace(/\s+/g, " ").slice(0, 160);
  if (err.code === "EAUTH") return new ChannelError("The mail server refused the user name or password", true);
  // requireTLS: the server answered STARTTLS with a refusal (it offers no encryption).
  if (err.code === "ETLS" && /upgrading connection with STARTTLS/.test(err.message ?? ""))
    return new ChannelError(
      "The mail server offers no encryption (STARTTLS), so the box did not send it the password: use the server's STARTTLS port (usually 587) or smtps:// (port 465)",
      true,
    );
  if (/certificate|self[- ]signed|unable to verify/i.test(err.message ?? ""))
    return new ChannelError(`The mail server's encryption cannot be trusted (${said}): nothing was sent`, true);
  if (err.code === "ETLS") return new ChannelError(`The mail server's encryption failed (${said}): nothing was sent`);
  if (err.code === "EENVELOPE" || (err.responseCode && err.responseCode >= 500)) return new ChannelError(`The mail server refused the message: ${said}`, true);
  if (err.code === "ETIMEDOUT") return new ChannelError("The mail server did not answer in time");
  if (err.code === "ECONNECTION" || err.code === "ESOCKET" || err.code === "EDNS") return new ChannelError(`Cannot reach the mail server (${said})`);
  return new ChannelError(`The mail was not sent: ${said}`);
}
