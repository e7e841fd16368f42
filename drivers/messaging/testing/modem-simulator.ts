import { closeSync, constants, existsSync, mkdirSync, openSync, readSync, writeSync } from "node:fs";
import { join } from "node:path";
import { type DecodedSubmit, decodeSubmit } from "./pdu-decode";

/**
 * A GSM modem on a socat pty pair, for tests: one end is linked into a test device root as
 * `<devRoot>/ttyUSB0` (what the box opens), this simulator answers AT commands on the other.
 *
 * It answers AT, ATE0/ATE1 (echo is on at first, like a real modem), AT+CPIN?, AT+CREG?,
 * AT+CMGF=0|1 and AT+CMGS=<n> in PDU mode: "> ", then the hex PDU up to Ctrl-Z (ESC
 * cancels), decoded as a network would (pdu-decode.ts): the TPDU length must match <n>; each
 * part is kept, and parts of a concatenated message are joined by reference and sequence
 * into `messages` once all have come. In text mode (AT+CMGF=1) it lists the texts in `stored`
 * with AT+CMGL and deletes them with AT+CMGD (AT+CPMS answers their count). Anything else
 * answers ERROR.
 *
 * Faults: `script.cmgs` answers the next AT+CMGS (in turn) with "ERROR", "+CMS ERROR: <n>"
 * (after the PDU, as a network refusal) or "hang" (never answers); `script.cpin`, `creg`;
 * unplug() ends socat, which the box sees as EIO.
 */
export interface SimulatedSms {
  to: string;
  text: string;
  parts: number;
}

export interface ModemSimulator {
  /** The device path the box opens (`<devRoot>/ttyUSB0`). */
  path: string;
  /** Every part received, in order of arrival. */
  parts: DecodedSubmit[];
  /** Whole messages (parts joined). */
  messages: SimulatedSms[];
  /** Every command line received. */
  commands: string[];
  script: { cpin: string; creg: number; cmgs: string[] };
  /** Texts stored on the modem, as AT+CMGL lists them and AT+CMGD deletes them (text mode). */
  stored: { index: number; from: string; sentAt: string; text: string; read: boolean }[];
  unplug(): void;
  stop(): Promise<void>;
}

export async function startModemSimulator(o: { devRoot: string; dir: string; name?: string }): Promise<ModemSimulator> {
  mkdirSync(o.devRoot, { recursive: true });
  const path = join(o.devRoot, o.name ?? "ttyUSB0");
  const peer = join(o.dir, `${o.name ?? "ttyUSB0"}-sim`);
  const socat = Bun.spawn(["socat", `pty,raw,echo=0,link=${path}`, `pty,raw,echo=0,link=${peer}`], { stderr: "ignore" });
  const t0 = Date.now();
  while (!(existsSync(path) && existsSync(peer))) {
    if (Date.now() - t0 > 5000) throw new Error("socat did not make the pty pair");
    await Bun.sleep(10);
  }
  const fd = openSync(peer, constants.O_RDWR | constants.O_NOCTTY | constants.O_NONBLOCK);

  const sim: ModemSimulator = {
    path,
    parts: [],
    messages: [],
    commands: [],
    script: { cpin: "READY", creg: 1, cmgs: [] },
    stored: [],
    unplug: () => socat.kill(),
    async stop() {
      stopped = true;
      socat.kill();
      await socat.exited;
    },
  };

  let stopped = false;
  let echo = true;
  let pduMode = false;
  let pending: { length: number; answer: string } | null = null;
  let input = "";
  let mr = 0;
  const pieces = new Map<string, Map<number, string>>();

  const say = (text: string) => {
    try {
      writeSync(fd, Buffer.from(text, "latin1"));
    } catch {
      // The box's end is gone.
    }
  };
  const ok = (...info: string[]) => say(`${info.map((l) => `\r\n${l}`).join("")}\r\nOK\r\n`);

  function onCommand(line: string) {
    sim.commands.push(line);
    if (echo) say(`${line}\r`);
    const cmd = line.toUpperCase();
    if (cmd === "AT") return ok();
    if (cmd === "ATE0" || cmd === "ATE1") {
      echo = cmd === "ATE1";
      return ok();
    }
    if (cmd === "AT+CPIN?") return ok(`+CPIN: ${sim.script.cpin}`);
    if (cmd === "AT+CREG?") return ok(`+CREG: 0,${sim.script.creg}`);
    const cmgf = /^AT\+CMGF=([01])$/.exec(cmd);
    if (cmgf) {
      pduMode = cmgf[1] === "0";
      return ok();
    }
    if (cmd.startsWith("AT+CPMS=")) {
      const n = sim.stored.length;
      return ok(`+CPMS: ${n},30,${n},30,${n},30`);
    }
    const cmgl = /^AT\+CMGL="(ALL|REC UNREAD|REC READ)"$/.exec(cmd);
    if (cmgl && !pduMode) {
      const want = cmgl[1];
      const list = sim.stored.filter((m) => want === "ALL" || (want === "REC UNREAD") === !m.read);
      const lines = list.flatMap((m) => [`+CMGL: ${m.index},"${m.read ? "REC READ" : "REC UNREAD"}","${m.from}",,"${m.sentAt}"`, m.text]);
      for (const m of list) m.read = true;
      return ok(...lines);
    }
    const cmgd = /^AT\+CMGD=(\d+)$/.exec(cmd);
    if (cmgd) {
      const i = sim.stored.findIndex((m) => m.index === Number(cmgd[1]));
      if (i < 0) return say("\r\n+CMS ERROR: 321\r\n");
      sim.stored.splice(i, 1);
      return ok();
    }
    const cmgs = /^AT\+CMGS=(\d+)$/.exec(cmd);
    if (cmgs && pduMode) {
      const answer = sim.script.cmgs.shift() ?? "ok";
      if (answer === "ERROR") return say("\r\nERROR\r\n");
      pending = { length: Number(cmgs[1]), answer };
      return say("\r\n> ");
    }
    say("\r\nERROR\r\n");
  }

  function onPdu(hex: string, p: { length: number; answer: string }) {
    let d: DecodedSubmit;
    try {
      d = decodeSubmit(hex.trim());
      if (d.tpduLength !== p.length) throw new Error("length");
    } catch {
      return say("\r\n+CMS ERROR: 304\r\n");
    }
    if (p.answer === "hang") return;
    if (p.answer.startsWith("+CMS ERROR")) return say(`\r\n${p.answer}\r\n`);
    sim.parts.push(d);
    if (!d.concat) sim.messages.push({ to: d.to, text: d.text, parts: 1 });
    else {
      const key = `${d.to}/${d.concat.ref}`;
      const got = pieces.get(key) ?? new Map<number, string>();
      got.set(d.concat.seq, d.text);
      pieces.set(key, got);
      if (got.size === d.concat.total) {
        pieces.delete(key);
        const text = [...got.entries()]
          .sort((a, b) => a[0] - b[0])
          .map(([, t]) => t)
          .join("");
        sim.messages.push({ to: d.to, text, parts: d.concat.total });
      }
    }
    mr = (mr + 1) % 256;
    say(`\r\n+CMGS: ${mr}\r\n\r\nOK\r\n`);
  }

  function feed(text: string) {
    input += text;
    for (;;) {
      if (pending) {
        const end = input.search(/[\x1a\x1b]/);
        if (end < 0) return;
        const p = pending;
        pending = null;
        const body = input.slice(0, end);
        const cancelled = input[end] === "\x1b";
        input = input.slice(end + 1);
        if (cancelled) say("\r\nOK\r\n");
        else onPdu(body, p);
        continue;
      }
      const cr = input.indexOf("\r");
      if (cr < 0) return;
      const line = input.slice(0, cr).replace(/^\n+/, "").trim();
      input = input.slice(cr + 1);
      if (line) onCommand(line);
    }
  }

  void (async () => {
    const buf = Buffer.alloc(4096);
    while (!stopped) {
      try {
        const n = readSync(fd, buf, 0, buf.length, null);
        // 0: socat has gone (unplugged).
        if (n === 0) break;
        feed(buf.subarray(0, n).toString("latin1"));
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code !== "EAGAIN") break;
        await Bun.sleep(5);
      }
    }
    try {
      closeSync(fd);
    } catch {
      // Already closed.
    }
  })();

  return sim;
}
