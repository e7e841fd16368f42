/**
 * The one way the appliance runs a child process (reports, HQ's restores and checks, the
 * database check, Litestream): spawn, a lower CPU priority, a timeout, a kill when the caller
 * aborts, stderr kept, and how it ended in one word. On a two-core box a background process
 * must never take the counter's CPU, so priority is set the portable way: `nice -n N` execs
 * the command (same pid, so kill and pid files still name the real process).
 */
import { existsSync } from "node:fs";

/** How a child ended: `ok` exit 0; `failed` another exit code; `timeout`/`aborted` killed by us; `killed` by a signal not ours. */
export type ChildExit = "ok" | "failed" | "timeout" | "aborted" | "killed";

export interface ChildEnd {
  exit: ChildExit;
  code: number | null;
  /** The end of stderr (the last `stderrLimit` characters): the reason, when there is one. */
  stderr: string;
}

export interface ChildOptions {
  /** Run at this niceness (10: background work). Where `nice` is missing, at normal priority. */
  nice?: number;
  /** Killed (SIGKILL) after this long, and ends as `timeout`. */
  timeoutMs?: number;
  /** Killed when this aborts, and ends as `aborted`. */
  signal?: AbortSignal;
  /** Written to the child's stdin, then closed; without it stdin is closed from the start. */
  input?: string;
  /** `pipe` (the default): read `stdout` yourself, at your pace (back-pressure); `ignore`. */
  stdout?: "pipe" | "ignore";
  /** Each line of stdout and stderr as it arrives (a long-running child's log); the end of stderr is still kept. */
  onLine?: (line: string) => void;
  env?: Record<string, string | undefined>;
  stderrLimit?: number;
}

export interface Child {
  pid: number;
  /** The child's stdout when `stdout: "pipe"` and no `onLine`. */
  stdout: ReadableStream<Uint8Array> | null;
  /** Stops it (SIGTERM by default); it then ends as `aborted`. */
  kill(signal?: NodeJS.Signals): void;
  ended: Promise<ChildEnd>;
}

const NICE = ["/usr/bin/nice", "/bin/nice"].find((p) => existsSync(p)) ?? null;

/** Reads a stream line by line into `onLine`; returns the last `keep` characters read. */
async function lines(stream: ReadableStream<Uint8Array>, onLine: ((l: string) => void) | undefined, keep: number): Promise<string> {
  const decoder = new TextDecoder();
  let rest = "";
  let tail = "";
  const reader = stream.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    const text = decoder.decode(r.value, { stream: true });
    if (keep > 0) tail = (tail + text).slice(-keep);
    if (!onLine) continue;
    rest += text;
    const parts = rest.split("\n");
    rest = parts.pop() ?? "";
    for (const l of parts) onLine(l);
  }
  if (rest && onLine) onLine(rest);
  return tail;
}

export function spawnChild(cmd: string[], o: ChildOptions = {}): Child {
  const argv = o.nice && NICE ? [NICE, "-n", String(o.nice), ...cmd] : cmd;
  const proc = Bun.spawn(argv, {
    stdin: o.input !== undefined ? "pipe" : "ignore",
    stdout: o.stdout === "ignore" && !o.onLine ? "ignore" : "pipe",
    stderr: "pipe",
    ...(o.env ? { env: o.env } : {}),
  });
  if (o.input !== undefined) {
    const stdin = proc.stdin as import("bun").FileSink;
    stdin.write(o.input);
    stdin.end();
  }
  let why: "timeout" | "aborted" | null = null;
  const kill = (reason: "timeout" | "aborted", sig: NodeJS.Signals) => {
    why ??= reason;
    proc.kill(sig);
  };
  const timer = o.timeoutMs ? setTimeout(() => kill("timeout", "SIGKILL"), o.timeoutMs) : null;
  const onAbort = () => kill("aborted", "SIGKILL");
  if (o.signal?.aborted) onAbort();
  else o.signal?.addEventListener("abort", onAbort, { once: true });
  const limit = o.stderrLimit ?? 4000;
  const out = proc.stdout as ReadableStream<Uint8Array> | undefined;
  const outRead = o.onLine && out ? lines(out, o.onLine, 0) : Promise.resolve("");
  const errRead = lines(proc.stderr as ReadableStream<Uint8Array>, o.onLine, limit);
  const ended = (async (): Promise<ChildEnd> => {
    const [code, , stderr] = await Promise.all([proc.exited, outRead, errRead]);
    if (timer) clearTimeout(timer);
    o.signal?.removeEventListener("abort", onAbort);
    const exit: ChildExit = why ?? (proc.signalCode ? "killed" : code === 0 ? "ok" : "failed");
    return { exit, code: proc.signalCode ? null : code, stderr };
  })();
  return {
    pid: proc.pid,
    stdout: o.onLine || !out ? null : out,
    kill: (sig = "SIGTERM") => kill("aborted", sig),
    ended,
  };
}

/** Runs a child to its end and collects its stdout as text. */
export async function runChild(cmd: string[], o: Omit<ChildOptions, "stdout" | "onLine"> = {}): Promise<ChildEnd & { stdout: string }> {
  const c = spawnChild(cmd, { ...o, stdout: "pipe" });
  const [stdout, end] = await Promise.all([c.stdout ? new Response(c.stdout).text() : "", c.ended]);
  return { ...end, stdout };
}
