import { createServer } from "node:net";

/**
 * Loopback ports for the servers a test starts itself (stand-in HQs, sshd, a box in a child
 * process), asked of the kernel instead of written in the test: two `npm test` runs side by
 * side (two checkouts, or a CI job beside an engineer's run) each get their own (issue 33).
 * The kernel hands out a port nobody listens on; it is closed again and handed to the test,
 * so the window for a third process to take it is a few milliseconds, not a whole run.
 */
function bindable(port: number): Promise<number | null> {
  return new Promise((res) => {
    const srv = createServer();
    srv.once("error", () => res(null));
    srv.listen(port, "127.0.0.1", () => {
      const { port: got } = srv.address() as { port: number };
      srv.close(() => res(got));
    });
  });
}

/**
 * A free loopback port `p` such that `p .. p + count - 1` are all free (a script that takes
 * `--port p` and uses p + 1 and p + 2 for its other servers asks for count 3).
 */
export async function freePort(count = 1): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const first = await bindable(0);
    if (first === null) continue;
    // Ports at the top of the range have no room for the rest of the block.
    if (first + count - 1 > 65_535) continue;
    let all = true;
    for (let i = 1; i < count && all; i++) all = (await bindable(first + i)) !== null;
    if (all) return first;
  }
  throw new Error(`no ${count} free loopback ports in a row`);
}
