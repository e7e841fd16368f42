import { useSignals } from "@preact/signals-react/runtime";
import { useCallback, useEffect, useState } from "react";
import { allowed, useHqAgent } from "../../app/access";
import { Field, Section } from "../../components/form";
import { toast } from "../../components/toast";
import { ApiError } from "../../lib/api";
import { employee } from "../../lib/session";
import { QuietHoursSection } from "./QuietHours";
import { type MessagingSettings, getSettings, putSettings, type TestChannel, testChannel } from "./api";

type Key = keyof MessagingSettings["values"];

/** The three ways out of the shop, each with its fields and the address a test goes to. */
const CHANNELS: {
  channel: TestChannel;
  title: string;
  about: string;
  fields: { key: Key; label: string; hint: string; placeholder: string }[];
  to: { label: string; type: string; placeholder: string };
}[] = [
  {
    channel: "gateway",
    title: "SMS through an Android phone",
    about: "The shop's phone runs SMS Gateway for Android in local server mode; its screen shows the address, user and password.",
    fields: [
      {
        key: "sms_gateway_url",
        label: "Gateway URL",
        hint: "http://user:password@192.168.1.40:8080",
        placeholder: "http://user:password@192.168.1.40:8080",
      },
    ],
    to: { label: "Test phone number", type: "tel", placeholder: "+356 7900 0000" },
  },
  {
    channel: "modem",
    title: "SMS through a GSM modem on the box",
    about: "A USB modem with a SIM card, plugged into the box.",
    fields: [{ key: "modem_path", label: "Modem device", hint: "A serial device under /dev, e.g. /dev/ttyUSB0", placeholder: "/dev/ttyUSB0" }],
    to: { label: "Test phone number", type: "tel", placeholder: "+356 7900 0000" },
  },
  {
    channel: "smtp",
    title: "E-mail",
    about: "For customers without a mobile: the shop's mail server (or its provider's).",
    fields: [
      { key: "smtp_url", label: "SMTP URL", hint: "smtp://user:password@mail.example.com:587", placeholder: "smtp://user:password@mail.example.com:587" },
      { key: "smtp_from", label: "From", hint: "The sender customers see", placeholder: "Ironbox Dry Cleaning <shop@example.com>" },
    ],
    to: { label: "Test e-mail address", type: "email", placeholder: "someone@example.com" },
  },
];

/**
 * Messaging settings (admin): where SMS and e-mail leave the shop, and a test of each.
 * Settings the box's environment presets are shown but not editable here; passwords come
 * back masked, and a masked value sent back unchanged keeps the stored one.
 */
export function SettingsScreen() {
  useSignals();
  // The channels are the whole box's: HQ staff change them, as the server rules; a shop's admin reads and tests them.
  const canSet = allowed("hqStaff", employee.value, useHqAgent());
  const [settings, setSettings] = useState<MessagingSettings | null>(null);
  const [draft, setDraft] = useState<MessagingSettings["values"] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const load = useCallback(
    () =>
      getSettings().then(
        (s) => {
          setSettings(s);
          setDraft(s.values);
          setError(null);
        },
        (e: Error) => setError(e.message),
      ),
    [],
  );
  useEffect(() => void load(), [load]);

  if (error)
    return (
      <p className="form-error">
        Could not load the settings: {error}{" "}
        <button type="button" className="btn btn-small" onClick={() => void load()}>
          Try again
        </button>
      </p>
    );
  if (!settings || !draft) return <p className="muted">Loading the settings…</p>;
  const changed = (Object.keys(draft) as Key[]).some((k) => draft[k] !== settings.values[k]);

  async function save() {
    setSaving(true);
    try {
      const s = await putSettings(draft!);
      setSettings(s);
      setDraft(s.values);
      toast("Settings saved.");
    } catch {
      // The red toast already said why.
    } finally {
      setSaving(false);
    }
  }

  return (
    <div className="stack messaging">
      {CHANNELS.map((c) => (
        <Section key={c.channel} title={c.title}>
          <p className="muted">{c.about}</p>
          <div className="grid-2">
            {c.fields.map((f) => {
              const preset = settings.presets[f.key];
              return (
                <Field key={f.key} label={f.label} hint={preset ? "Set by the box's environment; change it there." : f.hint}>
                  <input
                    name={f.key}
                    value={draft[f.key] ?? ""}
                    placeholder={f.placeholder}
                    readOnly={preset || !canSet}
                    autoComplete="off"
                    spellCheck={false}
                    onChange={(e) => setDraft({ ...draft, [f.key]: e.target.value })}
                  />
                </Field>
              );
            })}
          </div>
          <ChannelTest channel={c.channel} to={c.to} unsaved={changed} />
        </Section>
      ))}
      {canSet ? (
        <div className="form-buttons">
          <button type="button" className="btn" disabled={!changed || saving} onClick={() => setDraft(settings.values)}>
            Undo changes
          </button>
          <button type="button" className="btn btn-primary" disabled={!changed || saving} onClick={() => void save()}>
            Save
          </button>
        </div>
      ) : (
        <p className="muted">Only head-quarters staff change where messages leave the box.</p>
      )}
      <QuietHoursSection canSet={canSet} />
    </div>
  );
}

/** A real message to a number or address the admin types, and what happened in plain words. */
function ChannelTest({ channel, to, unsaved }: { channel: TestChannel; to: { label: string; type: string; placeholder: string }; unsaved: boolean }) {
  const [address, setAddress] = useState("");
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);

  async function test() {
    if (!address.trim()) return toast(`Enter a ${to.type === "email" ? "e-mail address" : "phone number"} to test with`, "warning");
    setBusy(true);
    setResult(null);
    try {
      const r = await testChannel(channel, address.trim());
      setResult({ ok: r.ok, text: r.message });
    } catch (e) {
      setResult({ ok: false, text: e instanceof ApiError ? e.message : "The test could not run" });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="msg-filters msg-test">
      <Field label={to.label}>
        <input
          type={to.type}
          value={address}
          placeholder={to.placeholder}
          onChange={(e) => setAddress(e.target.value)}
          onKeyDown={(e) => e.key === "Enter" && void test()}
        />
      </Field>
      <button type="button" className="btn" disabled={busy} onClick={() => void test()} title={unsaved ? "Tests the saved settings" : undefined}>
        {busy ? "Testing…" : "Test"}
      </button>
      {unsaved && <small className="muted">Save first: the test uses the saved settings.</small>}
      {result && (
        <p className={result.ok ? "msg-result-ok" : "msg-result-bad"} role="status" data-testid={`test-result-${channel}`}>
          {result.ok ? "✓ " : "✗ "}
          {result.text}
        </p>
      )}
    </div>
  );
}
