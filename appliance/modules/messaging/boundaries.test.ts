import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

// Issue 23: a module's tables are its own. Messaging reads tickets, their states and log,
// customers and shops through those modules' read functions (reads.ts), never their tables.
const OTHERS = ["tickets", "ticketStates", "ticketLogStates", "ticketSubCategories", "customers", "agents", "employees"];

test("messaging's production files import no other module's table, and none is over ~400 lines", () => {
  const dir = import.meta.dir;
  const files = readdirSync(dir).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"));
  expect(files.length).toBeGreaterThan(5);
  for (const f of files) {
    const src = readFileSync(join(dir, f), "utf8");
    const schemaImports = [...src.matchAll(/import[^;]*?\{([^}]*)\}[^;]*?from "\.\.\/\.\.\/\.\.\/db\/schema"/g)].flatMap((m) =>
      m[1]!.split(",").map((n) => n.replace(/\btype\b/, "").trim()),
    );
    for (const t of OTHERS) expect(schemaImports, `${f} imports ${t}`).not.toContain(t);
    expect(src.split("\n").length, f).toBeLessThanOrEqual(400);
  }
});

test("the check can fail: a file importing the tickets table is caught", () => {
  const src = 'import { outgoingMessages, tickets } from "../../../db/schema";';
  const names = [...src.matchAll(/import[^;]*?\{([^}]*)\}[^;]*?from "\.\.\/\.\.\/\.\.\/db\/schema"/g)].flatMap((m) => m[1]!.split(",").map((n) => n.trim()));
  expect(names).toContain("tickets");
});
