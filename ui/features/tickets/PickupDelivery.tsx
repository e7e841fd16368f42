import { useEffect, useState } from "react";
import { DateField } from "../../components/DateField";
import { addDays, businessDay } from "../../../appliance/domain/dates";
import { expressOffset } from "../../../appliance/domain/express";
import { displayDate, shortDay } from "../../../appliance/domain/format";
import { WEEKDAYS } from "../../../appliance/domain/schedule";
import type { Address } from "../../../appliance/modules/places/model";
import type { Availability } from "../../../appliance/modules/scheduling/model";
import type { Ticket, TicketOptions } from "../../../appliance/modules/tickets/model";
import { Field } from "../../components/form";
import { LoadFailed } from "../../components/LoadFailed";
import { useList } from "../../lib/useList";
import { type AddressDraft, AddressFields, addressValid, blankAddress } from "../people/fields";
import { createAddress, getAvailability, listTicketAddresses } from "./api";

/** The pickers show this many days from today, each with the van's room left. */
const DAYS_SHOWN = 21;
/** Spec §9: a new ticket's pickup and delivery default to 7 days out. */
const DEFAULT_DAYS_AHEAD = 7;

type Leg = "pickup" | "delivery";
const LEGS: Record<Leg, { title: string; switchLabel: string; flag: "pickup_from_client" | "delivery_to_client" }> = {
  pickup: { title: "Pickup", switchLabel: "Pickup from the client", flag: "pickup_from_client" },
  delivery: { title: "Delivery", switchLabel: "Delivery to the client", flag: "delivery_to_client" },
};

/** Where the proposal starts: 7 days out, or sooner when an item is express (its modifier's day offset). */
export function defaultDay(ticket: Ticket, today: string): string {
  const offsets = ticket.ticket_sub_categories
    .flatMap((i) => i.modifiers.filter((m) => m.modifier_type === "EXPRESS").map((m) => expressOffset(m.name)))
    .filter((n) => n >= 0);
  return addDays(today, offsets.length ? Math.min(...offsets) : DEFAULT_DAYS_AHEAD);
}

/**
 * The counter's pickup and delivery (spec §2 ticket edit, §7 deliveryPickupOptions): for each
 * leg a switch (to or from the client), the day, and when the van goes, the address, a comment
 * and a charge. The day pickers show the van's room left per day in the address's locality in
 * the spec's colours, and the first day with room and plant capacity for the ticket's actions.
 * The box decides whether a day is full (then a manager approves).
 */
export function PickupDeliveryPanel({
  ticket,
  onDate,
  onOptions,
}: {
  ticket: Ticket;
  onDate: (leg: Leg, day: string) => void;
  onOptions: (o: TicketOptions) => void;
}) {
  // The list is the ticket's customer's; reloaded when an address is added. A failed load says so (issue 31).
  const list = useList(() => listTicketAddresses(ticket.id), ticket.id);
  const addresses = list.items ?? [];
  const loadAddresses = () => void list.retry();
  const today = businessDay(new Date());
  const start = defaultDay(ticket, today);
  const actions = [...new Set(ticket.ticket_sub_categories.flatMap((i) => i.actions.map((a) => a.actionID)))].sort((a, b) => a - b);
  return (
    <section className="card stops-panel" aria-label="Pickup and delivery">
      <LoadFailed what="the customer's addresses" error={list.error} onRetry={loadAddresses} />
      {(["pickup", "delivery"] as const).map((leg) => (
        <LegEditor
          key={leg}
          leg={leg}
          ticket={ticket}
          addresses={addresses}
          today={today}
          start={start}
          actions={actions}
          onDate={onDate}
          onOptions={onOptions}
          onAddressAdded={loadAddresses}
        />
      ))}
    </section>
  );
}

/** A locality's room per day from today, and the proposed day; null while loading or without a locality. */
function useAvailability(locality: number | null, today: string, start: string, actions: number[]): Availability | null {
  const [room, setRoom] = useState<Availability | null>(null);
  const key = actions.join(",");
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for the actions
  useEffect(() => {
    setRoom(null);
    if (!locality) return;
    let live = true;
    getAvailability({ locality, from: today, days: DAYS_SHOWN, default_date: start, actions }).then(
      (a) => live && setRoom(a),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [locality, today, start, key]);
  return room;
}

function LegEditor(props: {
  leg: Leg;
  ticket: Ticket;
  addresses: Address[];
  today: string;
  start: string;
  actions: number[];
  onDate: (leg: Leg, day: string) => void;
  onOptions: (o: TicketOptions) => void;
  onAddressAdded: () => void;
}) {
  const { leg, ticket, addresses, onDate, onOptions } = props;
  const { title, switchLabel, flag } = LEGS[leg];
  const on = ticket[flag];
  const date = ticket[`${leg}_date`];
  const address = ticket[`${leg}_address`];
  const room = useAvailability(address?.locality_id ?? null, props.today, props.start, props.actions);
  const [adding, setAdding] = useState<AddressDraft | null>(null);
  const comment = ticket[`${leg}_comment`];
  const charge = ticket[`${leg}_charge`];
  const noRounds = room?.days.every((d) => d.capacity === 0) ?? false;
  // Why the day moved when the leg was switched on (issue 25): "Thu 03/12 is full in Naxxar".
  const [moved, setMoved] = useState<string | null>(null);
  const dayOf = (day: string | null) => room?.days.find((d) => d.date === day) ?? null;
  const isFull = (day: string | null) => {
    const d = dayOf(day);
    // The box counts a day without a van round as full too.
    return !!d && (d.left <= 0 || !d.ok);
  };
  /** Switching a leg on keeps its day unless that day is full: then the first day with room, saying why. */
  function switchLeg(next: boolean) {
    if (next && date && address && room?.proposed && room.proposed !== date && isFull(date)) {
      const d = dayOf(date)!;
      setMoved(`${shortDay(date)} is ${d.capacity ? "full" : "not a van day"} in ${address.locality}: moved to ${shortDay(room.proposed)}.`);
      return onOptions({ [flag]: true, [`${leg}_date`]: room.proposed });
    }
    setMoved(null);
    onOptions({ [flag]: next });
  }

  async function saveAddress() {
    if (!adding || !addressValid(adding)) return;
    const made = await createAddress(adding).catch(() => null);
    if (!made) return;
    setAdding(null);
    props.onAddressAdded();
    onOptions({ [`${leg}_address_id`]: made.id });
  }

  return (
    <div className="stops-leg" data-testid={`${leg}-leg`}>
      <div className="stops-leg-head">
        <h3>{title}</h3>
        <label className="stops-switch">
          <input type="checkbox" role="switch" aria-checked={on} checked={on} onChange={(e) => switchLeg(e.target.checked)} />
          {switchLabel}
        </label>
        <DateField
          label={`${title} date`}
          value={date ?? ""}
          clearable={false}
          onChange={(d) => {
            setMoved(null);
            onDate(leg, d);
          }}
        />
      </div>
      {moved && on && (
        <p className="stops-moved" role="status">
          {moved}
        </p>
      )}

      {/* A leg that is off is its one line above; its strip shows once the van goes (issue 25). */}
      {on && address && room && !noRounds && (
        <>
          <small className="stops-scroll-hint muted">Scroll sideways for more days ›</small>
          <fieldset className="stops-days" aria-label={`${title} days in ${address.locality}`}>
            {room.days.map((d) => (
              <button
                key={d.date}
                type="button"
                className={`stops-day load-${d.colour}`}
                data-colour={d.colour}
                aria-pressed={d.date === date}
                aria-label={`${WEEKDAYS[d.day_of_week]} ${displayDate(d.date)}: ${d.left} of ${d.capacity} left${d.left > 0 && !d.ok ? ", plant full" : ""}`}
                onClick={() => {
                  setMoved(null);
                  onDate(leg, d.date);
                }}
              >
                <span>{WEEKDAYS[d.day_of_week]!.slice(0, 3)}</span>
                <strong>{displayDate(d.date).slice(0, 5)}</strong>
                <small>{d.left > 0 && !d.ok ? "plant full" : `${d.left} left`}</small>
              </button>
            ))}
          </fieldset>
          {room.proposed && room.proposed !== date && (
            <p className="stops-proposal">
              {date && isFull(date) ? `${shortDay(date)} is full in ${address.locality}. ` : ""}First day with room:{" "}
              <strong>{displayDate(room.proposed)}</strong>{" "}
              <button type="button" className="btn btn-small" onClick={() => onDate(leg, room.proposed!)}>
                Use {displayDate(room.proposed)}
              </button>
            </p>
          )}
        </>
      )}
      {on && address && noRounds && <p className="muted small">No van rounds to {address.locality} in the next three weeks.</p>}

      {on && (
        <div className="grid-2 stops-details">
          <Field label={`${title} address`}>
            <select
              value={adding ? "new" : String(address?.id ?? "")}
              onChange={(e) =>
                e.target.value === "new" ? setAdding(blankAddress) : (setAdding(null), onOptions({ [`${leg}_address_id`]: Number(e.target.value) }))
              }
            >
              {!address && <option value="">No address</option>}
              {address && !addresses.some((a) => a.id === address.id) && <option value={address.id}>{address.line}</option>}
              {addresses.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.id === ticket.customer.address_id ? `Home: ${a.line}` : a.line}
                </option>
              ))}
              <option value="new">Another address…</option>
            </select>
          </Field>
          <Field label={`${title} comment`}>
            <input
              key={comment}
              defaultValue={comment}
              maxLength={500}
              onBlur={(e) => e.target.value !== comment && onOptions({ [`${leg}_comment`]: e.target.value })}
              onKeyDown={(e) => e.key === "Enter" && e.currentTarget.blur()}
            />
          </Field>
          <Field label={`${title} charge (€)`}>
            <input
              key={charge}
              type="number"
              inputMode="decimal"
              min={0}
              step="0.01"
              defaultValue={charge}
              onBlur={(e) => {
                const euros = Number(e.target.value);
                if (e.target.value !== "" && Number.isFinite(euros) && euros >= 0 && euros !== charge) onOptions({ [`${leg}_charge`]: euros });
              }}
              onKeyDown={(e) => e.key === "Enter" && e.currentTarget.blur()}
            />
          </Field>
          {adding && (
            <fieldset className="stops-new-address" aria-label={`New ${leg} address`}>
              <AddressFields value={adding} onChange={setAdding} />
              <div className="form-buttons">
                <button type="button" className="btn" onClick={() => setAdding(null)}>
                  Cancel
                </button>
                <button type="button" className="btn btn-primary" disabled={!addressValid(adding)} onClick={saveAddress}>
                  Save address
                </button>
              </div>
            </fieldset>
          )}
        </div>
      )}
    </div>
  );
}
