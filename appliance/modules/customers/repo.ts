import type { Db } from "../../../db/client";
import { inJsonList, prepared } from "../../../db/prepared";
import { customers } from "../../../db/schema";

/** Customers by ids (a JSON list): the winners of every search, read whole; the query built once (db/prepared.ts). */
export const customersById = prepared((q: Db) => q.select().from(customers).where(inJsonList(customers.id, "ids")).prepare());
