import { sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * The accountant's chart (issue 34): the account code and name HQ maps each kind of journal
 * line to (books/accounts.ts lists the keys and their defaults). A key without a row uses its
 * default.
 */
export const accountCodes = sqliteTable("account_codes", {
  key: text("key").primaryKey(),
  code: text("code").notNull(),
  name: text("name").notNull(),
  updated_at: text("updated_at").notNull(),
});
