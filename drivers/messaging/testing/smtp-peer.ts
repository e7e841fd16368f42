import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { type AddressInfo, connect, createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SMTPServer } from "smtp-server";

/**
 * A real SMTP server (smtp-server) on 127.0.0.1 for tests: login required, mail kept in
 * `mails` with its headers and body decoded (RFC 2047 words, quoted-printable, base64) so a
 * test can compare what a mailbox would show. A recipient at refused.example is answered 550.
 * With `tls` it offers STARTTLS with a self-signed certificate for 127.0.0.1 (`ca`: trust it)
 * and takes no login before it; without, it offers no STARTTLS at all (the probe's server).
 * Clients reach it through a loopback relay that keeps every byte they send (`clientBytes`),
 * so a test can check what crossed the wire in clear.
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
  /** The self-signed certificate (PEM) when the peer offers STARTTLS. */
  ca: string | null;
  /** Logins the server was asked for (right or wrong). */
  authAttempts: number;
  /** Everything clients sent, as it crossed the wire (encrypted after STARTTLS). */
  clientBytes(): Buffer;
  stop(): Promise<void>;
}

/** A self-signed P-256 certificate for 127.0.0.1 (openssl, as the HTTPS tests use). */
function selfSigned(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), "ironbox-smtp-tls-"));
  try {
    const r = spawnSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-keyout",
        join(dir, "key.pem"),
        "-out",
        join(dir, "cert.pem"),
        "-subj",
        "/CN=127.0.0.1",
        "-addext",
        "subjectAltName=IP:127.0.0.1",
        "-days",
        "2",
      ],
      { encoding: "utf8" },
    );
    if (r.status !== 0) throw new Error(`openssl failed: ${r.stderr}`);
    return { key: readFileSync(join(dir, "key.pem"), "utf8"), cert: readFileSync(join(dir, "cert.pem"), "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
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

export async function startSmtpPeer(o: { user: string; pass: string; tls?: boolean }): Promise<SmtpPeer> {
  const mails: ReceivedMail[] = [];
  const material = o.tls ? selfSigned() : null;
  let authAttempts = 0;
  const server = new SMTPServer({
    secure: false,
    ...(material
      ? { key: material.key, cert: material.cert, allowInsecureAuth: false }
      : // The probe's server: no STARTTLS, and it would take a login in clear.
        { disabledCommands: ["STARTTLS"], allowInsecureAuth: true }),
    logger: false,
    onAuth(auth, _session, cb) {
      authAttempts++;
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
  const inner = (server.server.address() as AddressInfo).port;
  // The relay: what the client sends is kept, then passed on unchanged both ways.
  const sent: Buffer[] = [];
  const open = new Set<{ destroy(): void }>();
  const relay: Server = createServer((client) => {
    const upstream = connect(inner, "127.0.0.1");
    open.add(client).add(upstream);
    client.on("data", (d: Buffer) => sent.push(Buffer.from(d)));
    client.pipe(upstream).pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
  });
  await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", () => resolve()));
  const { port } = relay.address() as AddressInfo;
  return {
    url: `smtp://${encodeURIComponent(o.user)}:${encodeURIComponent(o.pass)}@127.0.0.1:${port}`,
    mails,
    ca: material?.cert ?? null,
    get authAttempts() {
      return authAttempts;
    },
    clientBytes: () => Buffer.concat(sent),
    stop: async () => {
      for (const sock of open) sock.destroy();
      await new Promise<void>((resolve) => relay.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
