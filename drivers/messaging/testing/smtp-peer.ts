import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

/**
 * A real SMTP server (smtp-server) on 127.0.0.1 for tests: login required, mail kept in
 * `mails` with its headers and body decoded (RFC 2047 words, quoted-printable, base64) so a
 * test can compare what a mailbox would show. A recipient at refused.example is answered 550.
 */
export interface ReceivedMail {
  from: string;
  to: string[];
  headers: Map<string, string>;
  subject: string;
  body: string;
  raw: string;
}

export interface SmtpPeer {
  /** smtp://user:pass@127.0.0.1:port */
  url: string;
  mails: ReceivedMail[];
  stop(): Promise<void>;
}

/** =?UTF-8?B?…?= and =?UTF-8?Q?…?= words, joined (whitespace between two words is dropped). */
function decodeWords(value: string): string {
  return value.replace(/\?=\s+=\?/g, "?==?").replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_, charset: string, enc: string, text: string) => {
    const bytes = enc.toUpperCase() === "B" ? Buffer.from(text, "base64") : qpBytes(text.replace(/_/g, " "));
    return new TextDecoder(charset).decode(bytes);
  });
}

function qpBytes(text: string): Buffer {
  const out: number[] = [];
  const s = text.replace(/=\r?\n/g, "");
  for (let i = 0; i < s.length; i++) {
    if (s[i] === "=" && /^[0-9A-Fa-f]{2}$/.test(s.slice(i + 1, i + 3))) {
      out.push(Number.parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else out.push(s.charCodeAt(i));
  }
  return Buffer.from(out);
}

function parseMail(raw: string): Omit<ReceivedMail, "from" | "to"> {
  const split = raw.indexOf("\r\n\r\n");
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, " ");
  const headers = new Map<string, string>();
  for (const line of head.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
  }
  const bodyRaw = raw.slice(split + 4);
  const cte = (headers.get("content-transfer-encoding") ?? "7bit").toLowerCase();
  const charset = /charset="?([\w-]+)"?/i.exec(headers.get("content-type") ?? "")?.[1] ?? "utf-8";
  const bytes = cte === "quoted-printable" ? qpBytes(bodyRaw) : cte === "base64" ? Buffer.from(bodyRaw, "base64") : Buffer.from(bodyRaw, "binary");
  return {
    headers,
    subject: decodeWords(headers.get("subject") ?? ""),
    body: new TextDecoder(charset).decode(bytes).replace(/\r\n/g, "\n").replace(/\n$/, ""),
    raw,
  };
}

export async function startSmtpPeer(o: { user: string; pass: string }): Promise<SmtpPeer> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    secure: false,
    // A loopback test server: no certificate, so no STARTTLS; login over plain text is fine here.
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, cb) {
      if (auth.username === o.user && auth.password === o.pass) cb(null, { user: auth.username });
      else cb(Object.assign(new Error("Invalid username or password"), { responseCode: 535 }));
    },
    onRcptTo(address, _session, cb) {
      if (address.address.endsWith("@refused.example")) cb(Object.assign(new Error("No such user here"), { responseCode: 550 }));
      else cb();
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("binary");
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          ...parseMail(raw),
        });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://${encodeURIComponent(o.user)}:${encodeURIComponent(o.pass)}@127.0.0.1:${port}`,
    mails,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
