import { afterAll, beforeAll, expect, test } from "bun:test";
import { ADMIN, type TestBox, testBox } from "../../test/harness";

/** The ticket list is read as two index scans (not DELIVERED, then DELIVERED): its pages must still be one ordered list. */
let box: TestBox;
let admin: string;
beforeAll(async () => {
  box = await testBox({ demo: true });
  admin = await box.employeeToken(ADMIN.pin);
  const c = box.database.client;
  const customer = Number((await c.execute("SELECT id FROM customers ORDER BY id LIMIT 1")).rows[0]!.id);
  // 40 more tickets in a mix of states, DELIVERED ones among the newest too.
  const states = ["DELIVERED", "IN PROGRESS", "CLOSED", "DELIVERED", "CREATED", "MARKED", "DELIVERED AND PAID"];
  for (let i = 0; i < 40; i++)
    await c.execute({
      sql: "INSERT INTO tickets (agent_id, employee_id, customer_id, state) VALUES (1, 1, ?, ?)",
      args: [customer, states[i % states.length]!],
    });
});
afterAll(() => box.close());

async function expected(where = "") {
  const rows = await box.database.client.execute(
    `SELECT t.id FROM tickets t JOIN customers c ON c.id = t.customer_id WHERE t.state <> 'CREATED' ${where} ORDER BY t.state = 'DELIVERED', t.id DESC`,
  );
  return rows.rows.map((r) => Number(r.id));
}
async function paged(query: string, size: number) {
  const out: number[] = [];
  // Bounded: a list that never ends (a page offset ignored) fails instead of looping.
  for (let offset = 0; offset < 1000; offset += size) {
    const r = await box.call("GET", `/api/v1/tickets/?limit=${size}&offset=${offset}${query}`, { token: admin });
    const page: number[] = r.json.data.map((t: { id: number }) => t.id);
    out.push(...page);
    if (page.length < size) return out;
  }
  throw new Error("the list did not end within 1000 rows");
}

test("every page size gives the same order as one sort: not DELIVERED newest first, then DELIVERED newest first", async () => {
  const all = await expected();
  expect(all.length).toBeGreaterThan(40);
  for (const size of [1, 3, 7, 10, 50, 200]) expect(await paged("", size)).toEqual(all);
  // A page that starts past every non-DELIVERED ticket (the counted path).
  const firstDelivered = all.length - Number((await box.database.client.execute("SELECT count(*) AS n FROM tickets WHERE state = 'DELIVERED'")).rows[0]!.n);
  const deep = await box.call("GET", `/api/v1/tickets/?limit=5&offset=${Number(firstDelivered) + 2}`, { token: admin });
  expect(deep.json.data.map((t: { id: number }) => t.id)).toEqual(all.slice(Number(firstDelivered) + 2, Number(firstDelivered) + 7));
});

test("filters and search keep the order: notState, a customer's name, a ticket number", async () => {
  expect(await paged("&notState=CLOSED", 4)).toEqual(await expected("AND t.state <> 'CLOSED'"));
  const name = String((await box.database.client.execute("SELECT full_name FROM customers ORDER BY id LIMIT 1")).rows[0]!.full_name);
  const word = name.split(" ").at(-1)!;
  expect(await paged(`&term=${encodeURIComponent(word)}`, 6)).toEqual(await expected(`AND c.full_name LIKE '%${word.replace(/'/g, "''")}%'`));
  const some = (await expected())[5]!;
  expect(await paged(`&term=${some}`, 10)).toContain(some);
  expect(await paged("&term=nobody-by-this-name", 10)).toEqual([]);
});
