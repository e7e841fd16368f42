import { z } from "zod";
import type { RouteDef } from "./route";

const toJson = (s: z.ZodType, io: "input" | "output" = "input") => z.toJSONSchema(s, { io, unrepresentable: "any" });

/** The success envelope around a route's answer, as the client reads it (zod's "output" side). */
const envelope = (data: z.ZodType) => toJson(z.object({ success: z.literal(true), data }), "output");

/** A route's 200: the JSON envelope of its response, and any file it answers with instead. */
function ok(r: RouteDef) {
  const content: Record<string, unknown> = {};
  if (r.response) content["application/json"] = { schema: envelope(r.response) };
  for (const type of r.files ?? []) content[type] = { schema: { type: "string", format: "binary" } };
  const description = r.files?.length
    ? `${r.response ? "Envelope {success: true, data}, or " : ""}the file (${r.files.join(", ")})`
    : "Envelope {success: true, data}";
  return Object.keys(content).length ? { description, content } : { description };
}

/** The OpenAPI document, built from the same route table and zod schemas that validate requests. */
export function buildOpenApi(routes: readonly RouteDef[], version: string, publicFace?: { prefix: string; routes: readonly RouteDef[] }) {
  const paths: Record<string, Record<string, unknown>> = {};
  // Issue 35: the public face's routes, served on their own listener under their own prefix.
  const all = [...routes.map((r) => ({ r, prefix: "/api/v1" })), ...(publicFace?.routes ?? []).map((r) => ({ r, prefix: publicFace!.prefix }))];
  for (const { r, prefix } of all) {
    const path = `${prefix}${r.path}`.replace(/:(\w+)/g, "{$1}");
    const parameters: unknown[] = [];
    for (const [where, schema] of [
      ["path", r.params],
      ["query", r.query],
    ] as const) {
      if (!schema) continue;
      const js = toJson(schema) as { properties?: Record<string, unknown>; required?: string[] };
      for (const [name, s] of Object.entries(js.properties ?? {})) {
        parameters.push({ name, in: where, required: where === "path" || (js.required ?? []).includes(name), schema: s });
      }
    }
    if (r.idempotent) parameters.push({ name: "Idempotency-Key", in: "header", required: false, schema: { type: "string", maxLength: 200 } });
    const access = "public" in r.access ? "public" : "agent" in r.access ? "agent" : r.access.roles.join(",");
    paths[path] ??= {};
    paths[path][r.method.toLowerCase()] = {
      summary: r.summary,
      tags: [r.tag],
      "x-access": access,
      ...(r.hqOwned ? { "x-hq-owned": true } : {}),
      ...("public" in r.access ? {} : { security: [{ token: [] }] }),
      ...(parameters.length ? { parameters } : {}),
      ...(r.body ? { requestBody: { required: true, content: { "application/json": { schema: toJson(r.body) } } } } : {}),
      responses: {
        "200": ok(r),
        "4XX": { description: "Envelope {success: false, message}" },
      },
    };
  }
  return {
    openapi: "3.1.0",
    info: { title: "Ironbox API", version },
    components: {
      securitySchemes: { token: { type: "apiKey", in: "header", name: "Authorization", description: "token <jwt>" } },
    },
    paths,
  };
}
