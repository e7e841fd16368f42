import { expect, test } from "bun:test";
import { CANCELLED, pairBlePrinter, writeChunked } from "./ble";

/** A characteristic that records what it was sent; `fails(size, call)` says which writes to refuse. */
function fake(fails: (size: number, call: number) => boolean = () => false) {
  const writes: Uint8Array[] = [];
  let call = 0;
  return {
    writes,
    ch: {
      async writeValue(d: Uint8Array) {
        if (fails(d.length, call++)) throw new Error("GATT operation failed");
        writes.push(d);
      },
    },
    joined: () => Uint8Array.from(writes.flatMap((w) => [...w])),
  };
}
const sleeps = () => {
  const waited: number[] = [];
  return { waited, sleep: async (ms: number) => void waited.push(ms) };
};
const data = (n: number) => Uint8Array.from({ length: n }, (_, i) => i % 251);

test("250 bytes go as 100, 100, 50 with 50 ms between chunks, reporting progress", async () => {
  const f = fake();
  const s = sleeps();
  const progress: number[] = [];
  await writeChunked(f.ch, data(250), { sleep: s.sleep, onProgress: (sent) => progress.push(sent) });
  expect(f.writes.map((w) => w.length)).toEqual([100, 100, 50]);
  expect(s.waited).toEqual([50, 50]);
  expect(progress).toEqual([100, 200, 250]);
  expect(f.joined()).toEqual(data(250));
});

test("a chunk that fails once is sent again after 500 ms; nothing lost or doubled", async () => {
  const f = fake((_, call) => call === 1);
  const s = sleeps();
  await writeChunked(f.ch, data(250), { sleep: s.sleep });
  expect(s.waited).toEqual([50, 500, 50]);
  expect(f.joined()).toEqual(data(250));
});

test("a printer that refuses 100-byte chunks gets 30-byte chunks from there on", async () => {
  const f = fake((size) => size > 30);
  const s = sleeps();
  await writeChunked(f.ch, data(95), { sleep: s.sleep });
  expect(f.writes.map((w) => w.length)).toEqual([30, 30, 30, 5]);
  expect(f.joined()).toEqual(data(95));
});

test("a printer that refuses everything cancels with the spec's message", async () => {
  const f = fake(() => true);
  await expect(writeChunked(f.ch, data(10), { sleep: sleeps().sleep })).rejects.toThrow(CANCELLED);
  expect(CANCELLED).toBe("Printer returned error(1) during print, cancelling");
});

test("pairing: no choice, a device that is no printer, and a printer whose characteristic gets the bytes", async () => {
  await expect(pairBlePrinter({ requestDevice: () => Promise.reject(new Error("User cancelled")) })).rejects.toThrow("No Bluetooth printer was chosen");
  const noWrite = { properties: { write: false, writeWithoutResponse: false }, writeValue: async () => {} };
  const gatt = (chars: object[]) => {
    const g = { connected: false, connect: async () => ((g.connected = true), g), getPrimaryServices: async () => [{ getCharacteristics: async () => chars }] };
    return g;
  };
  await expect(pairBlePrinter({ requestDevice: async () => ({ id: "x", name: "Watch", gatt: gatt([noWrite]) as never }) })).rejects.toThrow(
    "not a printer we can write to",
  );
  const f = fake();
  const printer = await pairBlePrinter({
    requestDevice: async () => ({
      id: "p1",
      name: "MPT-II",
      gatt: gatt([noWrite, { properties: { write: true, writeWithoutResponse: false }, writeValue: f.ch.writeValue }]) as never,
    }),
  });
  expect(printer.name).toBe("MPT-II");
  await printer.print(data(120));
  expect(f.joined()).toEqual(data(120));
});
