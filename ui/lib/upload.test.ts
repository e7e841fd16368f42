// The photo upload goes around api() (multipart), so it carries its own Idempotency-Key.
import { afterEach, expect, test } from "bun:test";
import { uploadImage } from "./upload";

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

test("each upload is a POST with its own Idempotency-Key (issue 17: a retry stores one image)", async () => {
  const sent: { url: string; method?: string; headers: Headers }[] = [];
  globalThis.fetch = (async (url: string, init?: RequestInit) => {
    sent.push({ url, method: init?.method, headers: new Headers(init?.headers) });
    const n = sent.length;
    return new Response(JSON.stringify({ success: true, data: { id: n, file: `${n}.png`, url: `/api/v1/images/${n}.png`, mime: "image/png", size: 4 } }));
  }) as typeof fetch;
  const file = new File(["\x89PNG"], "coat.png", { type: "image/png" });
  expect((await uploadImage(file))?.url).toBe("/api/v1/images/1.png");
  await uploadImage(file);
  expect(sent.map((s) => [s.method, s.url])).toEqual([
    ["POST", "/api/v1/images/"],
    ["POST", "/api/v1/images/"],
  ]);
  const keys = sent.map((s) => s.headers.get("idempotency-key"));
  expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  expect(keys[1]).not.toBe(keys[0]);
});
