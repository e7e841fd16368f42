import { useEffect, useState } from "react";
import { confirmDialog } from "../../components/dialog";
import { LoadFailed } from "../../components/LoadFailed";
import { Link, useLocation, useSearch } from "wouter";
import { WEEKDAYS, loadColour, stepWeek, weekDates, weekOf } from "../../../appliance/domain/schedule";
import { apiDate, displayDate, euroFromEuros } from "../../../appliance/domain/format";
import { fetchList, loadFailure } from "../../lib/api";
import { useList } from "../../lib/useList";
import { type Named, type ScheduleDay, type SimpleTicket, LIMIT_DAY, LIMIT_DEFAULT, LIMIT_WEEK_BUTTON, scheduleWeek, setTicketState } from "./api";
import { DriverRun } from "./DriverRun";

type DayView = "day" | "pickups" | "deliveries" | "driver";
const VIEWS: { id: Exclude<DayView, "day">; label: string }[] = [
  { id: "driver", label: "Driver" },
  { id: "pickups", label: "Pickups" },
  { id: "deliveries", label: "Deliveries" },
];

const short = (day: string) => displayDate(day).slice(0, 5);
const weekday = (day: ScheduleDay) => WEEKDAYS[day.day_of_week]!;
const assigned = (d: { assigned_pickups: number; assigned_deliveries: number }) => d.assigned_pickups + d.assigned_deliveries;
/** Spec §3 Address display: number, name, street and locality joined. */
export const addressLine = (a: SimpleTicket["pickup_address"]) => (a ? [a.number, a.name, a.street, a.locality].filter((x) => x && x.trim()).join(", ") : "");

/**
 * Spec §2 Scheduler (HQ): the week's days with their pickup/delivery capacity against what
 * is booked (spec §9 colours; over-booked days flagged), then a day's view with the buttons
 * Week, Driver, Pickups and Deliveries. Where we are lives in the address (?year&week&day&view)
 * so a reload or a shared link opens the same view.
 */
export function SchedulerScreen() {
  const [, navigate] = useLocation();
  const q = new URLSearchParams(useSearch());
  const today = apiDate(new Date());
  const now = weekOf(today);
  const year = Number(q.get("year")) || now.year;
  const week = Number(q.get("week")) || now.week;
  const day = q.get("day");
  const view = (q.get("view") as DayView | null) ?? "day";
  const limit = day ? LIMIT_DAY : Number(q.get("limit")) || LIMIT_DEFAULT;
  const go = (p: { year: number; week: number; day?: string; view?: DayView; limit?: number }) => {
    const s = new URLSearchParams({ year: String(p.year), week: String(p.week) });
    if (p.day) s.set("day", p.day);
    if (p.view && p.view !== "day") s.set("view", p.view);
    if (p.limit) s.set("limit", String(p.limit));
    navigate(`/scheduling?${s}`);
  };

  const [days, setDays] = useState<ScheduleDay[] | null>(null);
  const stateList = useList(() => fetchList<Named>("/ticketStates/"));
  const states = stateList.items ?? [];
  const type = view === "pickups" || view === "deliveries" ? view : undefined;
  // A failed load keeps what was shown and says so: never "Nothing booked" (issue 25).
  const [failed, setFailed] = useState<string | null>(null);
  const load = () =>
    scheduleWeek(week, year, { limit, date: day ?? undefined, type }).then(
      (d) => (setDays(d), setFailed(null)),
      (e) => setFailed(loadFailure(e)),
    );
  useEffect(() => {
    setDays(null);
    setFailed(null);
    if (view !== "driver") load();
  }, [year, week, day, view, limit]);

  /** Issue 25: a state on a ticket changes all its lines too, so it asks first. */
  async function setState(id: number, state: string) {
    const t = days?.flatMap((d) => d.tickets).find((x) => x.id === id);
    const ok = await confirmDialog({
      title: "Set the state",
      message: `Set ticket #${id}${t ? ` (${t.customer_full_name})` : ""} and all its items to ${state || "(none)"}?`,
    });
    if (!ok) return void (await load());
    if (await setTicketState(id, state)) await load();
  }

  const dates = weekDates(year, week);
  const stepper = (
    <div className="toolbar sched-week-nav">
      <button
        type="button"
        className="btn"
        aria-label="Previous week"
        onClick={() => go({ ...stepWeek(year, week, -1), limit: q.has("limit") ? limit : undefined })}
      >
        ‹
      </button>
      <strong className="sched-week-title" data-testid="week-title">
        Week {week}, {year} <span className="muted">{`${short(dates[0]!)} – ${short(dates[6]!)}`}</span>
      </strong>
      <button
        type="button"
        className="btn"
        aria-label="Next week"
        onClick={() => go({ ...stepWeek(year, week, 1), limit: q.has("limit") ? limit : undefined })}
      >
        ›
      </button>
      <Link href="/bookings" className="btn btn-small">
        Online bookings
      </Link>
      {(year !== now.year || week !== now.week) && (
        <button type="button" className="btn btn-small" onClick={() => go(now)}>
          This week
        </button>
      )}
    </div>
  );

  if (!day) {
    return (
      <div className="stack">
        {stepper}
        <LoadFailed what="the week" error={failed} onRetry={() => void load()} />
        {days === null ? (
          !failed && <p className="muted">Loading the week…</p>
        ) : (
          <div className="sched-week">
            {days.map((d) => (
              <DayCard key={d.date} day={d} today={d.date === today} onOpen={() => go({ year, week, day: d.date })} />
            ))}
          </div>
        )}
      </div>
    );
  }

  const current = days?.find((d) => d.date === day) ?? null;
  return (
    <div className="stack">
      <div className="toolbar sched-day-nav">
        <button type="button" className="btn" onClick={() => go({ year, week, limit: LIMIT_WEEK_BUTTON })}>
          Week
        </button>
        {VIEWS.map((v) => (
          <button
            key={v.id}
            type="button"
            className={`btn ${view === v.id ? "btn-primary" : ""}`}
            aria-pressed={view === v.id}
            onClick={() => go({ year, week, day, view: view === v.id ? "day" : v.id })}
          >
            {v.label}
          </button>
        ))}
        <strong className="sched-week-title" data-testid="day-title">
          {WEEKDAYS[new Date(`${day}T12:00:00Z`).getUTCDay()]} {displayDate(day)}
        </strong>
      </div>
      {view === "driver" ? (
        <DriverRun date={day} />
      ) : !current ? (
        failed ? (
          <LoadFailed what="the day" error={failed} onRetry={() => void load()} />
        ) : (
          <p className="muted">Loading the day…</p>
        )
      ) : (
        <>
          <LoadFailed what="the day" error={failed} onRetry={() => void load()} />
          <LoadFailed what="the ticket states" error={stateList.error} onRetry={() => void stateList.retry()} />
          <DayLoad day={current} />
          <section className="stack" aria-label={view === "day" ? "Tickets" : view === "pickups" ? "Pickups" : "Deliveries"}>
            {current.tickets.length === 0 ? (
              <p className="empty">
                {view === "pickups" ? "No pickups this day." : view === "deliveries" ? "No deliveries this day." : "Nothing booked this day."}
              </p>
            ) : (
              current.tickets.map((t) => <TicketCard key={t.id} ticket={t} day={day} states={states} onState={setState} />)
            )}
          </section>
        </>
      )}
    </div>
  );
}

/** A load figure in spec §9's colours; over capacity also says so in words, not only in red. */
function Load({ booked, capacity, label }: { booked: number; capacity: number; label: string }) {
  const colour = loadColour(booked, capacity);
  return (
    <span
      className={`sched-load load-${colour}`}
      data-colour={colour}
      aria-label={`${label}: ${booked} of ${capacity}${booked > capacity ? ", over-booked" : ""}`}
    >
      {booked} / {capacity}
    </span>
  );
}
const OverBooked = ({ booked, capacity }: { booked: number; capacity: number }) =>
  booked > capacity ? <span className="badge badge-hidden">over-booked</span> : null;

function DayCard({ day, today, onOpen }: { day: ScheduleDay; today: boolean; onOpen: () => void }) {
  const booked = assigned(day);
  return (
    <article
      className={`card sched-day load-edge-${day.colour}${today ? " sched-today" : ""}`}
      aria-label={`${weekday(day)} ${displayDate(day.date)}`}
      data-testid="sched-day"
      data-colour={day.colour}
    >
      <button type="button" className="sched-day-head" onClick={onOpen} aria-label={`Open ${weekday(day)} ${displayDate(day.date)}`}>
        <span>
          <strong>{weekday(day)}</strong> <span className="muted">{short(day.date)}</span>
        </span>
        <Load booked={booked} capacity={day.capacity} label="Booked" />
      </button>
      <p className="muted small sched-counts">
        {day.assigned_pickups} pickup{day.assigned_pickups === 1 ? "" : "s"} / {day.assigned_deliveries} deliver{day.assigned_deliveries === 1 ? "y" : "ies"}{" "}
        <OverBooked booked={booked} capacity={day.capacity} />
      </p>
      {day.tickets.length > 0 && (
        <ul className="sched-mini">
          {day.tickets.map((t) => (
            <li key={t.id}>
              <Link href={`/tickets/${t.id}`}>#{t.id}</Link> {t.customer_full_name}{" "}
              <span className="badge">{t.pickup_date?.slice(0, 10) === day.date ? "P" : "D"}</span>
            </li>
          ))}
        </ul>
      )}
      {day.ticket_count > day.tickets.length && (
        <button type="button" className="btn btn-small" onClick={onOpen}>
          +{day.ticket_count - day.tickets.length} more
        </button>
      )}
    </article>
  );
}

/** The day's load per locality (capacity against booked stops). */
function DayLoad({ day }: { day: ScheduleDay }) {
  return (
    <section className="card section" aria-label="Load">
      <div className="section-head">
        <h2>
          {day.assigned_pickups} pickups · {day.assigned_deliveries} deliveries
        </h2>
        <span>
          <OverBooked booked={assigned(day)} capacity={day.capacity} /> <Load booked={assigned(day)} capacity={day.capacity} label="Booked" />
        </span>
      </div>
      {day.localities.length > 0 && (
        <ul className="sched-localities">
          {day.localities.map((l) => (
            <li key={l.id}>
              <span>{l.name}</span> <Load booked={assigned(l)} capacity={l.capacity} label={l.name} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** One simple ticket (spec §3) of the day, with its state picker (spec §4: any state). */
function TicketCard({ ticket: t, day, states, onState }: { ticket: SimpleTicket; day: string; states: Named[]; onState: (id: number, state: string) => void }) {
  const stops = [
    t.pickup_date?.slice(0, 10) === day && { kind: "Pickup", address: t.pickup_address, comment: t.pickup_comment, from: t.pickup_from_client },
    t.delivery_date?.slice(0, 10) === day && { kind: "Delivery", address: t.delivery_address, comment: t.delivery_comment, from: t.delivery_to_client },
  ].filter((s) => !!s);
  return (
    <article className="card sched-ticket" aria-label={`Ticket ${t.id}`} data-testid="sched-ticket">
      <div className="sched-ticket-head">
        <div className="row-main">
          <strong>
            <Link href={`/tickets/${t.id}`}>#{t.id}</Link> {t.customer_full_name}
          </strong>
          <span className="muted small">
            {t.customer_contact && <a href={`tel:${t.customer_contact}`}>{t.customer_contact}</a>} · {t.agent_name}
          </span>
        </div>
        <select aria-label={`State of ticket ${t.id}`} value={t.state} onChange={(e) => onState(t.id, e.target.value)}>
          {states.map((s) => (
            <option key={s.id} value={s.name}>
              {s.name || "(none)"}
            </option>
          ))}
        </select>
      </div>
      {stops.map((s) => (
        <p key={s.kind} className="sched-stop">
          <span className="badge">{s.kind}</span> {!s.from ? "At the shop" : addressLine(s.address) || "No address"}
          {s.comment && <span className="item-comment">{s.comment}</span>}
        </p>
      ))}
      <p className="muted small">
        {t.detail && `${t.detail} · `}
        {euroFromEuros(t.total)} · paid {euroFromEuros(t.total_paid)}
      </p>
    </article>
  );
}
