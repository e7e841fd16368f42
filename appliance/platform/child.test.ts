// The one child-process runner: how each way of ending is told apart, priority, input, lines.
import { expect, test } from "bun:test";
import { runChild, spawnChild } from "./child";

test("exit 0 is ok, with stdout collected and the input given on stdin", async () => {
  const r = await runChild(["sh", "-c", "read x; echo got $x"], { input: "hello\n" });
  expect(r).toMatchObject({ exit: "ok", code: 0, stdout: "got hello\n", stderr: "" });
});

test("another exit code is failed, with the end of stderr as the reason", async () => {
  const r = await runChild(["sh", "-c", "echo first >&2; echo the reason >&2; exit 3"], { stderrLimit: 11 });
  expect(r).toMatchObject({ exit: "failed", code: 3, stderr: "the reason\n" });
});

test("past its timeout it is killed and ends as timeout; a control that finishes in time is ok", async () => {
  // Killed, not waited for: a child that ran its 120 s would outlast the test's own timeout.
  const slow = await runChild(["sleep", "120"], { timeoutMs: 200 });
  expect(slow).toMatchObject({ exit: "timeout", code: null });
  expect((await runChild(["true"], { timeoutMs: 5000 })).exit).toBe("ok");
});

test("an abort kills it (aborted); one aborted before the start never runs long", async () => {
  const ac = new AbortController();
  const c = spawnChild(["sleep", "30"], { signal: ac.signal });
  ac.abort();
  expect(await c.ended).toMatchObject({ exit: "aborted", code: null });
  const pre = new AbortController();
  pre.abort();
  expect((await runChild(["sleep", "30"], { signal: pre.signal })).exit).toBe("aborted");
});

test("a signal not sent by the runner is killed", async () => {
  const c = spawnChild(["sleep", "30"]);
  process.kill(c.pid, "SIGKILL");
  expect((await c.ended).exit).toBe("killed");
});

test("nice: the child itself (same pid) runs at that niceness; without it at the parent's", async () => {
  // Field 19 of /proc/<pid>/stat is the nice value; `exec` keeps the shell's pid for cat.
  const niceOf = async (o: { nice?: number }) => {
    const c = spawnChild(["sh", "-c", "echo $$; exec cat /proc/self/stat"], o);
    const text = await new Response(c.stdout!).text();
    await c.ended;
    const [pid, stat] = text.split("\n");
    expect(Number(pid)).toBe(c.pid);
    return Number(stat!.slice(stat!.lastIndexOf(")") + 2).split(" ")[16]);
  };
  const base = await niceOf({});
  expect(await niceOf({ nice: 10 })).toBe(Math.min(19, base + 10));
});

test("onLine gets every line of stdout and stderr, the last one without a newline too", async () => {
  const seen: string[] = [];
  const c = spawnChild(["sh", "-c", "echo a; echo b >&2; printf c"], { onLine: (l) => seen.push(l) });
  expect((await c.ended).exit).toBe("ok");
  expect(seen.sort()).toEqual(["a", "b", "c"]);
});
