import { useState } from "react";
import { toast } from "../../components/toast";
import { api } from "../../lib/api";

/** First run on an empty box: creates the head-quarters agent and its first admin. */
export function SetupScreen({ onDone }: { onDone: () => void }) {
  const [f, setF] = useState({ agent_name: "", user_name: "", password: "", full_name: "", pin: "" });
  const [busy, setBusy] = useState(false);
  const set = (k: keyof typeof f) => (e: React.ChangeEvent<HTMLInputElement>) => setF({ ...f, [k]: k === "pin" ? e.target.value.replace(/\D/g, "") : e.target.value });

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    if (Object.values(f).some((v) => !v.trim())) return toast("Please fill in every field", "warning");
    if (f.password.length < 8) return toast("The password needs at least 8 characters", "warning");
    setBusy(true);
    try {
      await api("POST", "/setup", { body: { ...f, pin: Number(f.pin) } });
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
          Shop (agent) name
          <input name="agent_name" value={f.agent_name} onChange={set("agent_name")} autoFocus />
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
          Administrator's PIN
          <input name="pin" type="password" inputMode="numeric" value={f.pin} onChange={set("pin")} />
        </label>
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          Set up Ironbox
        </button>
      </form>
    </div>
  );
}
