import { closeSync, constants, existsSync } from "node:fs";
import { type DeviceAccess, DevicePathError } from "../devices";
import { configureSerialLine, readAvailable, writeAll } from "../serial";
import { type Channel, ChannelError, type IncomingSms, type OutgoingMessage, type SendResult } from "./channel";
import { encodeMessage } from "./pdu";

/**
 * SMS through a GSM USB modem on the box, with AT commands (3GPP TS 27.005) over its tty.
 *
 * The line is set up and polled through drivers/serial.ts (stty + node:fs, non-blocking). A session per message: open,
 * AT, ATE0 (no echo), AT+CMGF=0 (PDU mode: see pdu.ts for why not text mode), then for each
 * part AT+CMGS=<length>, wait for the "> " prompt, write the PDU in hex and Ctrl-Z, and read
 * +CMGS: <mr> / ERROR / +CMS ERROR: <n>. One message at a time on the port (a queue), since
 * the modem has one command line. An unplugged modem shows as EIO.
 *
 * The modem cannot be asked afterwards what became of a message: no lookup(). Parts already
 * accepted are remembered per outbox key (in memory) so a retry after a failure in the middle
 * of a long message sends only the missing parts.
 */
export interface GsmModemOptions {
  /** /dev/ttyUSB2, /dev/serial/by-id/…: a serial device under the device root. */
  path: string;
  devices: DeviceAccess;
  baud?: number;
  /** For ordinary commands (default 5 s); sending a part may take up to 60 s on a slow network. */
  timeoutMs?: number;
  sendTimeoutMs?: number;
}

/** How often a quiet modem is looked at. */
const POLL_MS = 10;
const CTRL_Z = "\x1a";
const ESC = "\x1b";

/** +CMS ERROR codes (27.005 §3.2.5, 24.011) in plain words; the number-related ones are not retried. */
const CMS: Record<number, [string, boolean]> = {
  1: ["the network says the number does not exist", true],
  8: ["the operator refused the message (barring)", true],
  10: ["sending to this number is barred", true],
  21: ["the network rejected the message", true],
  27: ["the destination is out of service", false],
  28: ["the network does not know this subscriber", true],
  30: ["the number is unknown", true],
  38: ["the network is out of order", false],
  41: ["a temporary network failure", false],
  42: ["the network is congested", false],
  304: ["the modem rejected the message data", true],
  310: ["no SIM card in the modem", false],
  311: ["the SIM card needs its PIN", false],
  313: ["the SIM card failed", false],
  330: ["the SIM has no SMS centre number", false],
  331: ["no network service", false],
  332: ["the network did not answer in time", false],
};

class ModemLine {
  private buf = "";
  private constructor(
    private fd: number,
    private label: string,
  ) {}

  static async open(o: GsmModemOptions): Promise<ModemLine> {
    let node: string;
    try {
      node = o.devices.checkDevicePath(o.path, "serial");
    } catch (e) {
      if (e instanceof DevicePathError) throw new ChannelError(`Not sent: the modem's ${e.message.replace(/^path: /, "path ")}`, true);
      throw e;
    }
    if (!existsSync(node)) throw new ChannelError(`The modem is not connected (${o.path} is missing)`);
    await configureSerialLine(node, o.baud ?? 115200).catch((e: Error) => {
      throw new ChannelError(`Cannot set up the modem's port: ${e.message}`);
    });
    try {
      return new ModemLine(o.devices.openDevice(o.path, "serial", constants.O_RDWR | constants.O_NOCTTY | constants.O_NONBLOCK), o.path);
    } catch (e) {
      throw deviceError(e, o.path);
    }
  }

  close() {
    try {
      closeSync(this.fd);
    } catch {
      // Already gone with the device.
    }
  }

  async write(text: string, signal?: AbortSignal) {
    let done: boolean;
    try {
      done = await writeAll(this.fd, Buffer.from(text, "latin1"), { signal, pollMs: POLL_MS });
    } catch (e) {
      throw deviceError(e, this.label);
    }
    if (!done) throw new ChannelError("Stopped before the modem took the message");
  }

  /**
   * Reads until `done` finds what it waits for in what the modem said (returns its result) or
   * the time is up. What was read past the match is kept for the next wait.
   */
  async waitFor<T>(done: (text: string) => { value: T; rest: string } | null, timeoutMs: number, what: string, signal?: AbortSignal): Promise<T> {
    const until = Date.now() + timeoutMs;
    const chunk = Buffer.alloc(512);
    for (;;) {
      const hit = done(this.buf);
      if (hit) {
        this.buf = hit.rest;
        return hit.value;
      }
      if (signal?.aborted) throw new ChannelError("Stopped while waiting for the modem");
      if (Date.now() > until) throw new ChannelError(`The modem did not answer ${what} in time`);
      let n: number | null;
      try {
        n = readAvailable(this.fd, chunk);
      } catch (e) {
        throw deviceError(e, this.label);
      }
      if (n === 0) throw new ChannelError("The modem was unplugged (its port closed)");
      if (n === null) await Bun.sleep(POLL_MS);
      else this.buf += chunk.subarray(0, n).toString("latin1");
    }
  }

  /** Sends a command; resolves with its information lines once OK comes; ERROR / +CMS ERROR throw. */
  async command(cmd: string, timeoutMs: number, signal?: AbortSignal): Promise<string[]> {
    await this.start(cmd, signal);
    return this.waitFor((t) => finalResult(t, cmd), timeoutMs, `to ${cmd}`, signal);
  }

  /** Writes a command line, forgetting anything unread from before (late echoes, URCs). */
  async start(cmd: string, signal?: AbortSignal) {
    this.buf = "";
    await this.write(`${cmd}\r`, signal);
  }
}

/**
 * Looks for the final result of a command in what the modem said: OK gives the information
 * lines (without the command's echo), ERROR / +CME ERROR / +CMS ERROR throw.
 */
function finalResult(text: string, cmd: string): { value: string[]; rest: string } | null {
  const lines = text.split(/\r\n|\r|\n/);
  // The last element may be a line still arriving.
  for (let i = 0; i < lines.length - 1; i++) {
    const line = (lines[i] as string).trim();
    if (line === "OK") {
      const info = lines
        .slice(0, i)
        .map((l) => l.trim())
        .filter((l) => l && l !== cmd);
      return { value: info, rest: lines.slice(i + 1).join("\r\n") };
    }
    if (line === "ERROR" || line.startsWith("+CME ERROR") || line.startsWith("+CMS ERROR")) throw modemError(line, cmd);
  }
  return null;
}

function promptOrError(text: string): { value: true; rest: string } | null {
  if (text.includes(">")) return { value: true, rest: "" };
  finalResult(text, "AT+CMGS"); // throws on ERROR / +CMS ERROR
  return null;
}

function modemError(line: string, cmd: string): ChannelError {
  const cms = /^\+CMS ERROR:\s*(\d+)/.exec(line);
  if (cms) {
    const code = Number(cms[1]);
    const [words, permanent] = CMS[code] ?? [`error ${code}`, false];
    return new ChannelError(`The modem could not send the SMS: ${words} (+CMS ERROR ${code})`, permanent);
  }
  const cme = /^\+CME ERROR:\s*(.+)$/.exec(line);
  if (cme) return new ChannelError(`The modem refused ${cmd}: ${cme[1]}`);
  return new ChannelError(`The modem answered ERROR to ${cmd.startsWith("AT+CMGS") ? "the message" : cmd}`);
}

function deviceError(e: unknown, path: string): ChannelError {
  const err = e as NodeJS.ErrnoException;
  if (e instanceof ChannelError) return e;
  if (e instanceof DevicePathError) return new ChannelError(`Not sent: the modem's ${err.message.replace(/^path: /, "path ")}`, true);
  if (err.code === "EIO" || err.code === "ENODEV" || err.code === "ENXIO") return new ChannelError("The modem was unplugged");
  if (err.code === "ENOENT") return new ChannelError(`The modem is not connected (${path} is missing)`);
  if (err.code === "EACCES") return new ChannelError(`The box may not open the modem (${path}): add its user to the dialout group`);
  return new ChannelError(`The modem failed: ${err.message}`);
}

/** An 8-bit concatenation reference from the outbox key: the same on every retry. */
function refOf(key: string): number {
  let h = 0;
  for (let i = 0; i < key.length; i++) h = (h * 31 + key.charCodeAt(i)) >>> 0;
  return h & 0xff;
}

/**
 * The sessions waiting per device path, shared by every channel on that path: the settings
 * screen's test builds its own channel, and its check must still wait for a send in progress.
 */
const queues = new Map<string, Promise<void>>();

/** Keys whose parts the modem has taken, kept for retries of a message cut off midway. */
const MEMORY = 1000;

export function gsmModemChannel(o: GsmModemOptions): Channel {
  const timeoutMs = o.timeoutMs ?? 5000;
  const sendTimeoutMs = o.sendTimeoutMs ?? 60_000;
  const partsDone = new Map<string, Set<number>>();

  /** One session at a time on the port: each waits for the one before to finish. */
  function session<T>(work: (line: ModemLine) => Promise<T>): Promise<T> {
    const run = (queues.get(o.path) ?? Promise.resolve()).then(async () => {
      const line = await ModemLine.open(o);
      try {
        await line.command("AT", timeoutMs);
        await line.command("ATE0", timeoutMs);
        return await work(line);
      } finally {
        line.close();
      }
    });
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    queues.set(o.path, settled);
    // Forget an idle port's queue (the map would otherwise keep every path ever used).
    void settled.then(() => queues.get(o.path) === settled && queues.delete(o.path));
    return run;
  }

  return {
    kind: "sms",
    label: `SMS via modem ${o.path}`,

    send(msg: OutgoingMessage, signal?: AbortSignal): Promise<SendResult> {
      let pdus: ReturnType<typeof encodeMessage>;
      try {
        pdus = encodeMessage(msg.to.replace(/[\s-]/g, ""), msg.text, refOf(msg.key));
      } catch (e) {
        return Promise.reject(new ChannelError(`Not sent: ${(e as Error).message}`, true));
      }
      return session(async (line) => {
        await line.command("AT+CMGF=0", timeoutMs, signal);
        const done = partsDone.get(msg.key) ?? new Set<number>();
        const refs: string[] = [];
        for (const [i, pdu] of pdus.entries()) {
          if (done.has(i)) continue;
          // AT+CMGS answers with the "> " prompt (or an error), then takes the PDU and Ctrl-Z.
          await line.start(`AT+CMGS=${pdu.tpduLength}`, signal);
          await line.waitFor(promptOrError, timeoutMs, "with its > prompt", signal).catch(async (e) => {
            // No prompt in time: a late one would take our next command as message text; ESC cancels it.
            if (!(e instanceof ChannelError && /ERROR/.test(e.message))) await line.write(ESC).catch(() => undefined);
            throw e;
          });
          await line.write(pdu.hex + CTRL_Z);
          const info = await line
            .waitFor((t) => finalResult(t, "AT+CMGS"), sendTimeoutMs, "after the message", signal)
            .catch((e) => {
              if (i > 0 || done.size) throw new ChannelError(`${e.message} (after ${done.size} of ${pdus.length} parts)`, e.permanent);
              throw e;
            });
          const mr = info.map((l) => /^\+CMGS:\s*(\d+)/.exec(l)?.[1]).find(Boolean);
          if (mr === undefined) throw new ChannelError("The modem did not confirm the message (+CMGS missing)");
          refs.push(mr);
          done.add(i);
          partsDone.set(msg.key, done);
          if (partsDone.size > MEMORY) partsDone.delete(partsDone.keys().next().value as string);
        }
        partsDone.delete(msg.key);
        return { gatewayId: refs.join(",") || undefined };
      });
    },

    /**
     * Texts stored on the modem (issue 35), in text mode (27.005 §3.4.2): AT+CMGF=1, AT+CPMS
     * to read and delete in the modem's own storage ("MT": SIM and phone memory together), AT+CMGL="ALL"
     * (read and unread: a text read before a crash is still there and still ours), then for each
     * text handled, AT+CMGD=<index>. A text is deleted only after `handle` resolved, so one the box
     * could not record is read again on the next poll (the caller dedupes by sender, time and text).
     */
    receive(handle: (m: IncomingSms) => Promise<void>, max = 20, signal?: AbortSignal): Promise<number> {
      return session(async (line) => {
        await line.command("AT+CMGF=1", timeoutMs, signal);
        // Not every modem knows "MT"; its default storage is read then.
        await line.command('AT+CPMS="MT","MT","MT"', timeoutMs, signal).catch(() => undefined);
        const stored = parseCmgl(await line.command('AT+CMGL="ALL"', timeoutMs, signal)).slice(0, max);
        let n = 0;
        for (const m of stored) {
          await handle({ from: m.from, text: m.text, sentAt: m.sentAt });
          await line.command(`AT+CMGD=${m.index}`, timeoutMs, signal);
          n++;
        }
        return n;
      });
    },

    check(signal?: AbortSignal): Promise<void> {
      return session(async (line) => {
        const pin = (await line.command("AT+CPIN?", timeoutMs, signal)).find((l) => l.startsWith("+CPIN:"));
        if (!pin?.includes("READY"))
          throw new ChannelError(`The modem's SIM card is not ready (${pin?.replace("+CPIN:", "").trim() || "no answer"}): it may need its PIN`);
        const reg = (await line.command("AT+CREG?", timeoutMs, signal)).find((l) => l.startsWith("+CREG:"));
        const stat = Number(/\+CREG:\s*\d+\s*,\s*(\d+)/.exec(reg ?? "")?.[1]);
        // 1 = registered at home, 5 = roaming; 0/2/3/4 = not (yet) on a network.
        if (stat !== 1 && stat !== 5)
          throw new ChannelError(
            stat === 2 ? "The modem is still looking for a network" : stat === 3 ? "The network refused the modem's SIM" : "The modem is not on a network",
          );
      });
    },
  };
}

/**
 * AT+CMGL's answer in text mode: a header `+CMGL: <index>,<stat>,<oa>,[<alpha>],[<scts>]` per
 * text, followed by its lines (until the next header).
 */
export function parseCmgl(info: string[]): { index: number; from: string; sentAt: string; text: string }[] {
  const out: { index: number; from: string; sentAt: string; text: string; lines: string[] }[] = [];
  for (const l of info) {
    const h = /^\+CMGL:\s*(\d+)\s*,\s*"[^"]*"\s*,\s*"([^"]*)"\s*,\s*(?:"[^"]*")?\s*(?:,\s*"([^"]*)")?/.exec(l);
    if (h) out.push({ index: Number(h[1]), from: h[2]!, sentAt: h[3] ?? "", text: "", lines: [] });
    else out.at(-1)?.lines.push(l);
  }
  return out.map(({ lines, ...m }) => ({ ...m, text: lines.join("\n") }));
}
