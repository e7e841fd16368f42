import { describe, expect, test } from "bun:test";
import { z } from "zod";
import { buildOpenApi } from "./openapi";
import { route } from "./route";
import { testBox } from "../test/harness";

describe("OpenAPI response schemas", () => {
  test("a route that declares its response documents it inside the envelope", () => {
    const routes = [
      route({
        method: "GET",
        path: "/things/:id",
        tag: "t",
        summary: "One thing",
        access: { agent: true },
        response: z.object({ id: z.number(), name: z.string() }),
        handler: () => ({ id: 1, name: "x" }),
      }),
      route({ method: "GET", path: "/other/", tag: "t", summary: "Undocumented", access: { agent: true }, handler: () => 1 }),
    ];
    const doc = buildOpenApi(routes, "0") as {
      paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: any }> }> }>>;
    };
    const schema = doc.paths["/api/v1/things/{id}"]!.get!.responses["200"]!.content!["application/json"]!.schema;
    expect(schema.properties.success).toEqual({ type: "boolean", const: true });
    expect(schema.properties.data.properties.name).toEqual({ type: "string" });
    expect(schema.required).toEqual(["success", "data"]);
    expect(doc.paths["/api/v1/other/"]!.get!.responses["200"]!.content).toBeUndefined();
  });

  test("the served document has a response schema for every route that declares one", async () => {
    const box = await testBox();
    try {
      const r = await box.call("GET", "/api/v1/openapi.json");
      const declared = box.routes.filter((x) => x.response);
      expect(declared.length).toBeGreaterThan(0);
      for (const x of declared) {
        const path = `/api/v1${x.path}`.replace(/:(\w+)/g, "{$1}");
        const ok = r.json.paths[path][x.method.toLowerCase()].responses["200"];
        expect(ok.content?.["application/json"]?.schema?.properties?.data, `${x.method} ${path}`).toBeDefined();
      }
    } finally {
      box.close();
    }
  });

  test("every accounts and invoices route documents its answer: the envelope's data, or its file", async () => {
    const box = await testBox();
    try {
      const r = await box.call("GET", "/api/v1/openapi.json");
      const mine = box.routes.filter((x) => /^\/(accounts|invoices|invoicePrefixes)\//.test(x.path));
      expect(mine.length).toBeGreaterThanOrEqual(14);
      for (const x of mine) {
        const path = `/api/v1${x.path}`.replace(/:(\w+)/g, "{$1}");
        const content = r.json.paths[path][x.method.toLowerCase()].responses["200"].content ?? {};
        const documented = content["application/json"]?.schema?.properties?.data !== undefined || Object.keys(content).some((t) => t !== "application/json");
        expect(documented, `${x.method} ${path}`).toBe(true);
      }
      expect(r.json.paths["/api/v1/invoices/{id}/pdf"].get.responses["200"].content["application/pdf"].schema.format).toBe("binary");
      expect(r.json.paths["/api/v1/accounts/aged"].get.responses["200"].content["text/csv"]).toBeDefined();
      expect(r.json.paths["/api/v1/accounts/{id}/statement"].get.responses["200"].content["application/json"]).toBeDefined();
    } finally {
      box.close();
    }
  });
});
