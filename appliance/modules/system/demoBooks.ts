// The demo's books (issue 34): a hotel's business account at Mosta with two of the demo's Mosta
// customers on it, tickets charged to it, one invoice, a part payment by bank transfer, a ticket
// charged since (not invoiced yet), and a customer's deposit. Made through the services the API
// calls (the account, pay on account, invoice, payment and deposit routes'), on the demo's clock
// set to each step's moment, so the rows carry every invariant the API keeps (each charge its
// payment row, the invoice's lines its charges, the series gap-free). Every moment is days
// before `now`, so the demo is the same on any date and adds nothing to today's drawer.
import type { Db } from "../../../db/client";
import { createBooks } from "../accounts/books";
import { createInvoiceService } from "../accounts/invoices";
import { createAccountService } from "../accounts/service";
import type { ApprovalService } from "../approval/service";
import type { EmployeeCaller } from "../auth/caller";
import { businessDay } from "../../domain/dates";
import { createDepositService } from "../money/deposits";
import type { createItemService } from "../tickets/items";
import type { createTicketService } from "../tickets/service";
import { DAY_MS, statePath } from "./demoData";

/** Where the charged tickets end: delivered, and paid (on account). */
const DELIVERED = "DELIVERED AND PAID";

export interface BooksSeed {
  now: Date;
  /** Sets the demo clock (the services read it at each step). */
  setAt: (d: Date) => void;
  clock: { now(): Date };
  approvals: ApprovalService;
  tickets: ReturnType<typeof createTicketService>;
  items: ReturnType<typeof createItemService>;
  /** Mosta's manager and a Mosta counter clerk. */
  manager: EmployeeCaller;
  desk: EmployeeCaller;
  /** Three Mosta customers: the hotel's two, then the one who leaves a deposit. */
  customers: [number, number, number];
  /** Garments to put on the charged tickets (the demo catalogue's). */
  garments: { id: number; name: string; actionIds: number[] }[];
}

/** Days before `now` of each step (the invoice is then 35 days old: the aged report's 31–60 column). */
const CHARGED_DAYS_AGO = [48, 44, 41];
const INVOICED_DAYS_AGO = 35;
const PAID_DAYS_AGO = 12;
const LATER_CHARGE_DAYS_AGO = 4;
const DEPOSIT_DAYS_AGO = 6;

export async function seedBooks(db: Db, s: BooksSeed): Promise<void> {
  const accounts = createAccountService({ db, clock: s.clock });
  const invoices = createInvoiceService({ db, clock: s.clock, messageStatus: async () => new Map() });
  const books = createBooks({ db, clock: s.clock });
  const deposits = createDepositService({ db, clock: s.clock, approvals: s.approvals });
  const ago = (days: number, hour = 10) => {
    const d = new Date(s.now.getTime() - days * DAY_MS);
    d.setUTCHours(hour, 0, 0, 0);
    return d;
  };
  const [guestA, guestB, depositor] = s.customers;

  s.setAt(ago(60));
  const hotel = await accounts.create(s.manager, {
    name: "Hotel Santa Maria",
    customer_ids: [guestA, guestB],
    billing_contact: "Accounts Office",
    email: "accounts@santamaria-hotel.mt",
    vat_number: "MT 1234 5678",
    terms_days: 30,
    credit_limit: 1000,
    discount: null,
  });

  /** A confirmed ticket of two garments for a hotel customer, charged to the account in full. */
  const charged = async (customer: number, daysAgo: number, n: number) => {
    s.setAt(ago(daysAgo));
    const t = await s.tickets.create(
      s.desk,
      {
        customer_id: customer,
        pickup_date: businessDay(ago(daysAgo)),
        delivery_date: businessDay(ago(daysAgo - 3)),
        pickup_comment: "",
        delivery_comment: "",
        pickup_from_client: false,
        delivery_to_client: false,
        pickup_charge: 0,
        delivery_charge: 0,
      },
      { pin: "demo", client: "demo" },
    );
    for (const g of [s.garments[n % s.garments.length]!, s.garments[(n * 7 + 3) % s.garments.length]!])
      await s.items.add(
        s.desk,
        { ticket_id: t.id, garment_sub_category_id: g.id, description: g.name, quantity: 1, comments: "", actions: [g.actionIds[0]!], modifiers: [] },
        1,
      );
    s.setAt(new Date(ago(daysAgo).getTime() + 5 * 60_000));
    await s.tickets.confirm(s.desk, t.id);
    await s.tickets.payInFull(s.desk, t.id, { tender: "account" });
    // Cleaned and delivered to the hotel over the next days, as the counter moves a ticket on.
    for (const [k, state] of statePath(DELIVERED, false).entries()) {
      if (k === 0) continue;
      s.setAt(new Date(ago(daysAgo).getTime() + k * 6 * 3600_000));
      await s.tickets.changeState(s.desk, { Ids: [t.id], State: state });
    }
  };
  for (const [n, days] of CHARGED_DAYS_AGO.entries()) await charged(n % 2 ? guestB : guestA, days, n);

  s.setAt(ago(INVOICED_DAYS_AGO));
  const invoice = await invoices.create(s.manager, hotel.id, { from: businessDay(ago(CHARGED_DAYS_AGO[0]! + 5)), to: businessDay(ago(INVOICED_DAYS_AGO + 1)) });

  // Half the invoice, by bank transfer: the rest stays open.
  s.setAt(ago(PAID_DAYS_AGO));
  const half = Math.floor((invoice.total * 100) / 2) / 100;
  await books.pay(s.manager, hotel.id, {
    amount: half,
    method: "bank_transfer",
    reference: "TRF 20431",
    allocations: [{ invoice_id: invoice.id, amount: half }],
  });

  await charged(guestA, LATER_CHARGE_DAYS_AGO, 5);

  s.setAt(ago(DEPOSIT_DAYS_AGO));
  await deposits.deposit(s.desk, depositor, { amount: 20, method: "cash" });
}
