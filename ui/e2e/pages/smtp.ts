import { SMTPServer } from "smtp-server";

export interface Mail {
  to: string;
  raw: string;
}

/**
 * A local SMTP server keeping each mail as it arrived (the stand-in of the messaging API
 * tests), on 127.0.0.1 and a port of the system's choosing.
 */
export async function smtpStandIn(): Promise<{ mails: Mail[]; url: string; close: () => Promise<void> }> {
  const mails: Mail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address).join(","), raw: Buffer.concat(chunks).toString("utf8") });
        cb();
      });
    },
  });
  await new Promise<void>((r) => smtp.listen(0, "127.0.0.1", () => r()));
  const port = (smtp.server.address() as { port: number }).port;
  return { mails, url: `smtp://127.0.0.1:${port}`, close: () => new Promise<void>((r) => smtp.close(() => r())) };
}

/** The attachments of a MIME message: each part's file name and decoded bytes. */
export function attachments(raw: string): { name: string; body: Buffer }[] {
  const out: { name: string; body: Buffer }[] = [];
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(raw)?.[1];
  if (!boundary) return [];
  for (const part of raw.split(`--${boundary}`)) {
    const name = /filename="?([^";\r\n]+)"?/i.exec(part)?.[1];
    if (!name) continue;
    const body = part
      .split(/\r?\n\r?\n/)
      .slice(1)
      .join("\n\n");
    const base64 = /content-transfer-encoding:\s*base64/i.test(part);
    out.push({ name, body: base64 ? Buffer.from(body.replace(/\s+/g, ""), "base64") : Buffer.from(body) });
  }
  return out;
}
