import { expect, test } from "bun:test";
import {
  defaultTemplate,
  emptyPlaceholders,
  NEUTRAL_TEMPLATE,
  PLACEHOLDERS,
  renderStatusMessage,
  renderTemplate,
  stateSaying,
  type TemplateValues,
  unknownPlaceholders,
} from "./messageTemplate";

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

test("a state is said as people say it, never as its code", () => {
  expect(stateSaying("PICKED UP")).toBe("picked up");
  expect(stateSaying("AWAITING DELIVERY")).toBe("ready for delivery");
  expect(stateSaying("Mosta", true)).toBe("out for delivery in Mosta");
  expect(stateSaying("WAITING FOR PARTS")).toBe("waiting for parts");
  expect(stateSaying("")).toBe("");
  expect(stateSaying("   ")).toBe("");
});

test("a template with an empty value (a nameless state, no phone) falls back to the neutral text; what even that lacks is named, never left as a hole", () => {
  const broken = "Dear {customer_name}, your ticket {ticket_id} at {shop_name} is now {state}.";
  const r = renderStatusMessage(broken, { ...values, state: "" });
  expect(r).toEqual({ ok: true, neutral: true, text: renderTemplate(NEUTRAL_TEMPLATE, values) });
  expect(renderStatusMessage(broken, values)).toEqual({ ok: true, neutral: false, text: renderTemplate(broken, values) });
  expect(renderStatusMessage("Call {shop_phone} about {ticket_id}", { ...values, shop_phone: " " })).toEqual({
    ok: true,
    neutral: true,
    text: renderTemplate(NEUTRAL_TEMPLATE, values),
  });
  expect(renderStatusMessage("{state} {customer_name}", { ...values, state: "", customer_name: "" })).toEqual({ ok: false, missing: ["customer_name"] });
  expect(emptyPlaceholders("{ticket_id} {state} {state}", { ...values, state: "" })).toEqual(["state"]);
  // The empty state's default text needs no state.
  expect(defaultTemplate("")).toBe(NEUTRAL_TEMPLATE);
  expect(emptyPlaceholders(NEUTRAL_TEMPLATE, { ...values, state: "" })).toEqual([]);
});

test("every spec state's default message, as sent, names the state as people say it: no code (PICKED UP, PICKED_UP) in it", () => {
  const SPEC = [
    "CREATED",
    "AWAITING PICKUP",
    "PICKED UP",
    "TECNOWASH",
    "MARKED",
    "IN PROGRESS",
    "AWAITING DELIVERY",
    "OUT FOR DELIVERY",
    "DELIVERED",
    "DELIVERED AND PAID",
    "DELIVERED NOT PAID",
    "CLOSED",
  ];
  for (const s of SPEC) {
    const r = renderStatusMessage(defaultTemplate(s), { ...values, state: stateSaying(s) });
    expect(r.ok).toBe(true);
    const text = r.ok ? r.text : "";
    for (const code of SPEC) {
      expect(text, s).not.toContain(code);
      expect(text, s).not.toContain(code.replace(/ /g, "_"));
    }
  }
});
