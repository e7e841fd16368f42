import { afterEach, expect, test } from "bun:test";
import { closeSync, constants, mkdtempSync, openSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readAvailable, writeAll } from "./serial";

// A FIFO behaves like a tty here where it matters: non-blocking reads answer EAGAIN while it is
// empty and 0 once the writer is gone, and non-blocking writes answer EAGAIN while it is full.
let dir = "";
afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

function fifo() {
  dir = mkdtempSync(join(tmpdir(), "ironbox-serial-"));
  const path = join(dir, "line");
  Bun.spawnSync(["mkfifo", path]);
  const r = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  const w = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
  return { r, w };
}

test("readAvailable says 'nothing yet' on an empty line and 0 once the other end closed", () => {
  const { r, w } = fifo();
  const buf = Buffer.alloc(16);
  expect(readAvailable(r, buf)).toBeNull();
  closeSync(w);
  expect(readAvailable(r, buf)).toBe(0);
  closeSync(r);
});

test("writeAll waits out a full buffer and delivers every byte in order", async () => {
  const { r, w } = fifo();
  const bytes = Buffer.alloc(300_000, 0);
  for (let i = 0; i < bytes.length; i++) bytes[i] = i % 251;
  const got: Buffer[] = [];
  const buf = Buffer.alloc(8192);
  let reading = true;
  // A slow reader: the FIFO's 64 KiB buffer fills, so the writer must see EAGAIN and wait.
  const reader = (async () => {
    while (reading) {
      const n = readAvailable(r, buf);
      if (n === 0) break;
      if (n) got.push(Buffer.from(buf.subarray(0, n)));
      else await Bun.sleep(1);
    }
  })();
  expect(await writeAll(w, bytes, { pollMs: 2, chunk: 4096 })).toBe(true);
  closeSync(w);
  await reader;
  reading = false;
  closeSync(r);
  expect(Buffer.concat(got).equals(bytes)).toBe(true);
});

test("writeAll stops once aborted and says it did not finish", async () => {
  const { r, w } = fifo();
  const abort = new AbortController();
  // Nobody reads: the buffer fills, and the abort ends the wait.
  setTimeout(() => abort.abort(), 30);
  expect(await writeAll(w, Buffer.alloc(1_000_000), { signal: abort.signal, pollMs: 5 })).toBe(false);
  closeSync(w);
  closeSync(r);
});
