import { useEffect, useId, useRef, useState } from "react";
import { addDays, businessDay } from "../../appliance/domain/dates";
import { displayDate, parseDisplayDate } from "../../appliance/domain/format";

/**
 * The product's own date field (issue 25): a native <input type=date> follows the tablet's
 * language, so a US-English tablet shows 3 December as 12/03/2026 beside the strip's 03/12.
 * This one always reads and writes DD/MM/YYYY: type it (3/12/2026 and 2026-12-03 are
 * understood too) or tap the calendar. Its value is the API's "YYYY-MM-DD", or "" when empty.
 */
export interface DateFieldProps {
  value: string;
  onChange: (day: string) => void;
  /** The accessible name of the text box (and of its calendar button). */
  label?: string;
  min?: string;
  max?: string;
  /** Whether the field may be emptied (then onChange("") is sent). */
  clearable?: boolean;
  disabled?: boolean;
  name?: string;
}

/** "YYYY-MM-DD" from what was typed: DD/MM/YYYY, or the API's own form; else null. */
export function parseTypedDate(text: string): string | null {
  const t = text.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(t)) return parseDisplayDate(`${t.slice(8)}/${t.slice(5, 7)}/${t.slice(0, 4)}`);
  return parseDisplayDate(t.replaceAll(".", "/").replaceAll("-", "/"));
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const WEEK_HEAD = ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"];

export function DateField({ value, onChange, label, min, max, clearable = true, disabled, name }: DateFieldProps) {
  const [text, setText] = useState(displayDateOrBlank(value));
  const [problem, setProblem] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const editing = useRef(false);
  const id = useId();
  // A value set from outside (a strip tap, a reset) shows at once unless the person is typing.
  useEffect(() => {
    if (!editing.current) setText(displayDateOrBlank(value));
  }, [value]);

  const outOfRange = (day: string) => (min && day < min ? `On or after ${displayDate(min)}` : max && day > max ? `On or before ${displayDate(max)}` : null);
  function commit(raw: string, final: boolean) {
    if (!raw.trim()) {
      setProblem(null);
      if (clearable) {
        if (value) onChange("");
      } else if (final) setText(displayDateOrBlank(value));
      return;
    }
    const day = parseTypedDate(raw);
    const why = day ? outOfRange(day) : "Write the date as DD/MM/YYYY";
    if (day && !why) {
      setProblem(null);
      if (day !== value) onChange(day);
      if (final) setText(displayDate(day));
    } else if (final) setProblem(why);
  }

  return (
    <span className="date-field">
      <input
        id={id}
        name={name}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        placeholder="DD/MM/YYYY"
        aria-label={label}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-problem` : undefined}
        disabled={disabled}
        value={text}
        onFocus={() => (editing.current = true)}
        onChange={(e) => {
          setText(e.target.value);
          commit(e.target.value, false);
        }}
        onBlur={(e) => {
          editing.current = false;
          commit(e.target.value, true);
        }}
        onKeyDown={(e) => {
          if (e.key === "Enter") commit(e.currentTarget.value, true);
          if (e.key === "Escape") setOpen(false);
        }}
      />
      <button
        type="button"
        className="btn date-field-open"
        aria-label="Open the calendar"
        title={label ? `Choose ${label} on a calendar` : "Choose on a calendar"}
        aria-expanded={open}
        disabled={disabled}
        onClick={() => setOpen((o) => !o)}
      >
        <span aria-hidden="true">▦</span>
      </button>
      {problem && (
        <small id={`${id}-problem`} className="date-field-problem" role="alert">
          {problem}
        </small>
      )}
      {open && (
        <Calendar
          value={value}
          min={min}
          max={max}
          onPick={(day) => {
            setOpen(false);
            setProblem(null);
            setText(displayDate(day));
            if (day !== value) onChange(day);
          }}
          onClose={() => setOpen(false)}
        />
      )}
    </span>
  );
}

const displayDateOrBlank = (day: string) => (day ? displayDate(day) : "");

/** A month of day buttons, Monday first, each named DD/MM/YYYY. */
function Calendar({ value, min, max, onPick, onClose }: { value: string; min?: string; max?: string; onPick: (day: string) => void; onClose: () => void }) {
  const today = businessDay(new Date());
  const [month, setMonth] = useState((value || today).slice(0, 7));
  const first = `${month}-01`;
  const y = Number(month.slice(0, 4));
  const m = Number(month.slice(5, 7));
  const lead = (new Date(`${first}T12:00:00Z`).getUTCDay() + 6) % 7;
  const length = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const step = (n: number) => setMonth(addDays(`${month}-15`, n * 30).slice(0, 7));
  return (
    <div className="date-field-calendar card" role="dialog" aria-label="Choose a date" onKeyDown={(e) => e.key === "Escape" && onClose()}>
      <div className="date-field-head">
        <button type="button" className="btn" aria-label="Previous month" onClick={() => step(-1)}>
          ‹
        </button>
        <strong>
          {MONTHS[m - 1]} {y}
        </strong>
        <button type="button" className="btn" aria-label="Next month" onClick={() => step(1)}>
          ›
        </button>
      </div>
      <div className="date-field-grid">
        {WEEK_HEAD.map((d) => (
          <span key={d} className="muted">
            {d}
          </span>
        ))}
        {lead > 0 && <span style={{ gridColumn: `span ${lead}` }} />}
        {Array.from({ length }, (_, i) => {
          const day = `${month}-${String(i + 1).padStart(2, "0")}`;
          const off = (min && day < min) || (max && day > max);
          return (
            <button
              type="button"
              key={day}
              className={`date-field-day${day === value ? " chosen" : ""}${day === today ? " today" : ""}`}
              aria-label={displayDate(day)}
              aria-pressed={day === value}
              disabled={!!off}
              onClick={() => onPick(day)}
            >
              {i + 1}
            </button>
          );
        })}
      </div>
      <div className="date-field-foot">
        <button type="button" className="btn" onClick={() => onPick(today)} disabled={!!((min && today < min) || (max && today > max))}>
          Today
        </button>
        <button type="button" className="btn" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}
