import { useCallback, useEffect, useRef, useState } from "react";
import { PLACEHOLDERS, stateSaying, TEMPLATE_MAX, unknownPlaceholders } from "../../../appliance/domain/messageTemplate";
import { Field, Section } from "../../components/form";
import { toast } from "../../components/toast";
import { useHqStaff } from "../../app/access";
import { SharedDataNote } from "../catalogue/shared";
import { type MessageTemplate, listTemplates, previewTemplate, saveTemplate } from "./api";
import { SmsLength } from "./SmsLength";

/**
 * The status message of each ticket state (HQ staff edit; everyone else reads): placeholder buttons insert {customer_name}
 * and the like where the cursor is; the preview fills them in for a real ticket and shows
 * what the text costs as SMS.
 */
export function TemplatesScreen() {
  const [templates, setTemplates] = useState<MessageTemplate[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [stateId, setStateId] = useState<number | null>(null);
  const load = useCallback(
    () =>
      listTemplates().then(
        (t) => {
          setTemplates(t);
          setError(null);
          setStateId((prev) => prev ?? t[0]?.state_id ?? null);
        },
        (e: Error) => setError(e.message),
      ),
    [],
  );
  useEffect(() => void load(), [load]);
  // The templates are HQ's reference data, sent by every shop: HQ staff edit them, as the
  // server rules (403 for a shop's admin); on a box HQ manages nobody does (the server answers
  // 409 there), and nobody edits until the box has said which it is.
  const editable = useHqStaff();

  if (error)
    return (
      <p className="form-error">
        Could not load the templates: {error}{" "}
        <button type="button" className="btn btn-small" onClick={() => void load()}>
          Try again
        </button>
      </p>
    );
  if (!templates) return <p className="muted">Loading the templates…</p>;
  if (!templates.length) return <p className="muted">There are no ticket states to write messages for.</p>;
  const current = templates.find((t) => t.state_id === stateId) ?? templates[0]!;
  return (
    <div className="stack messaging">
      {!editable && <SharedDataNote />}
      <Field label="Ticket state">
        <select value={current.state_id} onChange={(e) => setStateId(Number(e.target.value))}>
          {templates.map((t) => (
            <option key={t.state_id} value={t.state_id}>
              {t.state || "(none)"}
              {t.is_default ? "" : " (edited)"}
              {t.auto_send ? " · sent by itself" : ""}
            </option>
          ))}
        </select>
      </Field>
      <TemplateEditor
        key={current.state_id}
        template={current}
        editable={editable}
        onSaved={(saved) => setTemplates((prev) => prev?.map((t) => (t.state_id === saved.state_id ? saved : t)) ?? prev)}
      />
    </div>
  );
}

function TemplateEditor({ template, editable, onSaved }: { template: MessageTemplate; editable: boolean; onSaved: (t: MessageTemplate) => void }) {
  const [text, setText] = useState(template.text);
  const [autoSend, setAutoSend] = useState(template.auto_send);
  const [saving, setSaving] = useState(false);
  const area = useRef<HTMLTextAreaElement>(null);
  const changed = text !== template.text || autoSend !== template.auto_send;
  const unknown = unknownPlaceholders(text);

  /** Puts the placeholder where the cursor is (or over the selection), and keeps typing there. */
  function insert(name: string) {
    const el = area.current;
    const token = `{${name}}`;
    const start = el?.selectionStart ?? text.length;
    const end = el?.selectionEnd ?? text.length;
    setText(text.slice(0, start) + token + text.slice(end));
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + token.length, start + token.length);
    });
  }

  async function save() {
    setSaving(true);
    try {
      onSaved(await saveTemplate(template.state_id, text, autoSend));
      toast("Settings saved.");
    } catch {
      // The red toast already said why (an unknown placeholder, too long...).
    } finally {
      setSaving(false);
    }
  }

  return (
    <>
      <Section title={`Message when a ticket becomes ${template.state || "(none)"}`}>
        {editable && (
          <fieldset className="chips msg-placeholders">
            <legend className="muted">Insert at the cursor</legend>
            {PLACEHOLDERS.map((p) => (
              <button key={p.key} type="button" className="chip" title={p.label} onClick={() => insert(p.key)}>
                {`{${p.key}}`}
              </button>
            ))}
          </fieldset>
        )}
        <Field label="Template" hint={editable && template.is_default ? "The standard text: edit it to make it the shop's own" : undefined}>
          <textarea ref={area} name="template" rows={5} maxLength={TEMPLATE_MAX} value={text} readOnly={!editable} onChange={(e) => setText(e.target.value)} />
        </Field>
        <label className="toggle">
          <input type="checkbox" name="auto_send" checked={autoSend} disabled={!editable} onChange={(e) => setAutoSend(e.target.checked)} />
          <span>Send by itself when a ticket becomes {template.state ? `${template.state} (“${stateSaying(template.state)}”)` : "(none)"}</span>
        </label>
        {autoSend && <p className="muted">Once per ticket; not to customers who asked for no messages; at night it waits for the end of quiet hours.</p>}
        {unknown.length > 0 && <p className="form-error">Not a placeholder: {unknown.map((u) => `{${u}}`).join(", ")}. Use the buttons above.</p>}
        {editable && (
          <div className="form-buttons">
            <button
              type="button"
              className="btn"
              disabled={!changed || saving}
              onClick={() => {
                setText(template.text);
                setAutoSend(template.auto_send);
              }}
            >
              Undo changes
            </button>
            <button type="button" className="btn btn-primary" disabled={!changed || saving || !text.trim() || unknown.length > 0} onClick={() => void save()}>
              Save
            </button>
          </div>
        )}
      </Section>
      <Preview text={text} />
    </>
  );
}

/** The template filled in for a real ticket, with its length in SMS parts. */
function Preview({ text }: { text: string }) {
  const [ticketId, setTicketId] = useState("");
  const [result, setResult] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a preview is of the text as it was when asked; editing it clears the preview.
  useEffect(() => setResult(null), [text]);

  async function preview() {
    const id = Number(ticketId);
    if (!Number.isInteger(id) || id <= 0) return toast("Enter a ticket number", "warning");
    setBusy(true);
    try {
      setResult((await previewTemplate(text, id)).text);
    } catch {
      setResult(null);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Section title="Preview">
      <div className="msg-filters">
        <Field label="Ticket #">
          <input
            name="ticket_id"
            inputMode="numeric"
            value={ticketId}
            onChange={(e) => setTicketId(e.target.value.replace(/\D/g, ""))}
            onKeyDown={(e) => e.key === "Enter" && void preview()}
          />
        </Field>
        <button type="button" className="btn" disabled={busy || !text.trim()} onClick={() => void preview()}>
          Preview
        </button>
      </div>
      {result === null ? (
        <p className="muted">Enter a ticket number to see the message its customer would get.</p>
      ) : (
        <>
          <p className="msg-preview" data-testid="template-preview">
            {result}
          </p>
          <SmsLength text={result} />
        </>
      )}
    </Section>
  );
}
