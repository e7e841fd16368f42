import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrateDatabase, openDatabase } from "../client";
import { stateSaying } from "../../appliance/domain/messageTemplate";
import { seedTicketStates, TICKET_STATES } from "./states";

const dir = mkdtempSync(join(tmpdir(), "ironbox-states-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function freshDb() {
  const database = await openDatabase(`file:${join(dir, "t.db")}`);
  await migrateDatabase(database);
  return database;
}

test("seedTicketStates only inserts what is missing", async () => {
  const db = await freshDb();
  await db.client.execute("INSERT INTO ticket_states (name, position) VALUES ('MARKED', 99), ('Naxxar', 17)");
  await seedTicketStates(db.db);
  await seedTicketStates(db.db);
  const states = (await db.client.execute("SELECT name, position FROM ticket_states ORDER BY id")).rows;
  expect(states.length).toBe(TICKET_STATES.length + 1);
  expect(states.find((s) => s.name === "MARKED")!.position).toBe(99); // left alone
  db.close();
});

test("every named state reads to a customer in words (or a place), never its code in capitals", () => {
  for (const s of TICKET_STATES.filter((s) => s.name)) {
    const said = stateSaying(s.name, s.is_locality_delivery);
    expect(said, s.name).not.toBe("");
    if (!s.is_locality_delivery) expect(said, s.name).toBe(said.toLowerCase());
  }
});
