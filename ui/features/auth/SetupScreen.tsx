import { useState } from "react";
import { toast } from "../../components/toast";
import { api } from "../../lib/api";

/**
 * First run on an empty box: creates the head-quarters agent and its first admin. The box
 * prints a one-time setup code to its console and keeps it in `<data dir>/setup-code`, so
 * only someone at the box can claim it.
 */
export function SetupScreen({ onDone }: { onDone: () => void }) {
  const [f, setF] = useState({ setup_code: "", agent_name: "", user_name: "", password: "", full_name: "", pin: "" });
  const [busy, setBusy] = useState(false);
  const set = (k: keyof typeof f) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setF({ ...f, [k]: k === "pin" ? e.target.value.replace(/\D/g, "").slice(0, 8) : e.target.value });

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    if (Object.values(f).some((v) => !v.trim())) return toast("Please fill in every field", "warning");
    if (f.password.length < 8) return toast("The password needs at least 8 characters", "warning");
    if (!/^\d{4,8}$/.test(f.pin)) return toast("The PIN is 4 to 8 digits", "warning");
    setBusy(true);
    try {
      await api("POST", "/setup", { body: f });
      toast("Ironbox is ready: log in with the shop user name and password");
      onDone();
    } catch {
      setBusy(false);
    }
  }

  return (
    <div className="login-page">
      <form className="card login-card" onSubmit={submit} aria-label="First-run setup">
        <div className="brand">Welcome to Ironbox</div>
        <p className="muted">Set up this box: the head-quarters shop login and its first administrator.</p>
        <label>
          Setup code
          <input
            name="setup_code"
            autoCapitalize="characters"
            autoComplete="off"
            spellCheck={false}
            value={f.setup_code}
            onChange={set("setup_code")}
            autoFocus
          />
          <small className="muted">Shown on the box's console when it starts, and kept in the file setup-code in its data directory.</small>
        </label>
        <label>
          Shop (agent) name
          <input name="agent_name" value={f.agent_name} onChange={set("agent_name")} />
        </label>
        <label>
          Shop user name
          <input name="user_name" autoCapitalize="none" value={f.user_name} onChange={set("user_name")} />
        </label>
        <label>
          Shop password
          <input name="password" type="password" autoComplete="new-password" value={f.password} onChange={set("password")} />
        </label>
        <label>
          Administrator's full name
          <input name="full_name" value={f.full_name} onChange={set("full_name")} />
        </label>
        <label>
          Administrator's PIN (4 to 8 digits)
          <input name="pin" type="password" inputMode="numeric" pattern="[0-9]*" autoComplete="new-password" value={f.pin} onChange={set("pin")} />
        </label>
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          Set up Ironbox
        </button>
      </form>
    </div>
  );
}
