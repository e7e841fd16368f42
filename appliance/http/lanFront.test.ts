import { expect, test } from "bun:test";
import { lanFront } from "./lanFront";

const caDer = new Uint8Array([0x30, 0x82, 0x01, 0x02]);
const front = lanFront({ httpsPort: 8443, caDer, caFileName: "ironbox-mosta-ca.crt" });
const page = { "sec-fetch-mode": "navigate", accept: "text/html" };
const get = (url: string, headers: Record<string, string> = page, method = "GET") => front(new Request(url, { method, headers }));

test("/ca.crt downloads the CA as DER with the type Android's installer takes, on HTTP and HTTPS", async () => {
  for (const url of ["http://192.168.1.20:8080/ca.crt", "https://ironbox-mosta.local:8443/ca.crt"]) {
    const r = get(url)!;
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/x-x509-ca-cert");
    expect(r.headers.get("content-disposition")).toBe('attachment; filename="ironbox-mosta-ca.crt"');
    expect(r.headers.get("x-content-type-options")).toBe("nosniff");
    expect(new Uint8Array(await r.arrayBuffer())).toEqual(caDer);
  }
});

test("plain HTTP page loads move to HTTPS on the same host name with a 307; query kept", () => {
  const r = get("http://192.168.1.20:8080/customers/12?tab=2")!;
  expect(r.status).toBe(307);
  expect(r.headers.get("location")).toBe("https://192.168.1.20:8443/customers/12?tab=2");
  expect(get("http://ironbox-mosta.local:8080/", { accept: "text/html,application/xhtml+xml" })!.headers.get("location")).toBe(
    "https://ironbox-mosta.local:8443/",
  );
});

test("stays on HTTP: the set-up page, the UI's files, the API, writes, loopback names, odd Host headers, and HTTPS itself", () => {
  expect(get("http://192.168.1.20:8080/setup-tablet")).toBeUndefined();
  expect(get("http://192.168.1.20:8080/main.js", { "sec-fetch-mode": "no-cors", accept: "*/*" })).toBeUndefined();
  expect(get("http://192.168.1.20:8080/api/v1/health")).toBeUndefined();
  expect(get("http://192.168.1.20:8080/api/v1/lan/tablet-setup", { accept: "application/json" })).toBeUndefined();
  expect(front(new Request("http://192.168.1.20:8080/login", { method: "POST", headers: page }))).toBeUndefined();
  for (const host of ["localhost", "127.0.0.1", "[::1]"]) expect(get(`http://${host}:8080/`)).toBeUndefined();
  expect(get("http://[fe80::1]:8080/")).toBeUndefined();
  expect(get("https://192.168.1.20:8443/")).toBeUndefined();
});
