import { expect, test } from "bun:test";
import { defaultTemplate, PLACEHOLDERS, renderTemplate, type TemplateValues, unknownPlaceholders } from "./messageTemplate";

const values: TemplateValues = {
  customer_name: "Ċensu Żammit",
  ticket_id: "42",
  state: "AWAITING DELIVERY",
  amount_due: "€12.50",
  shop_name: "Ironbox Mosta",
  shop_phone: "21 41 41 41",
  delivery_date: "03/02/2031",
};

test("every placeholder is replaced; braces that are not placeholders stay text", () => {
  const all = PLACEHOLDERS.map((p) => `{${p.key}}`).join("|");
  expect(renderTemplate(all, values)).toBe(Object.values(values).join("|"));
  expect(renderTemplate("{Customer_Name} {a b} {}", values)).toBe("{Customer_Name} {a b} {}");
  // A value that looks like a placeholder is not expanded again.
  expect(renderTemplate("{customer_name}", { ...values, customer_name: "{ticket_id}" })).toBe("{ticket_id}");
});

test("unknown placeholders are named once each", () => {
  expect(unknownPlaceholders("Hi {custmer_name}, {custmer_name} {ticket_id} {due}")).toEqual(["custmer_name", "due"]);
  expect(unknownPlaceholders("Hi {customer_name}")).toEqual([]);
});

test("every state's default text uses known placeholders only", () => {
  for (const s of ["", "CREATED", "AWAITING PICKUP", "AWAITING DELIVERY", "OUT FOR DELIVERY", "DELIVERED", "CLOSED", "Mosta"]) {
    expect(unknownPlaceholders(defaultTemplate(s))).toEqual([]);
    expect(renderTemplate(defaultTemplate(s), values)).not.toContain("{");
  }
});
