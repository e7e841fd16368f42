import { useState } from "react";
import { toast } from "../../components/toast";
import { loginAgent } from "./actions";

/** Spec §2 Login: user name and password, Login button, Enter submits. */
export function AgentLogin() {
  const [user, setUser] = useState("");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    if (!user.trim() || !password.trim()) {
      toast("Username & Password required", "warning");
      return;
    }
    setBusy(true);
    const r = await loginAgent(user.trim(), password);
    setBusy(false);
    if (r !== true) {
      setError(r);
      toast(r, "danger");
    }
  }

  return (
    <div className="login-page">
      <form className="card login-card" onSubmit={submit} aria-label="Shop login">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true">
            ◆
          </span>{" "}
          Ironbox
        </div>
        <p className="muted">Log this tablet in to your shop.</p>
        <label>
          User name
          <input name="user_name" autoComplete="username" autoCapitalize="none" value={user} onChange={(e) => setUser(e.target.value)} autoFocus />
        </label>
        <label>
          Password
          <input name="password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
        </label>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          {busy ? "Logging in…" : "Login"}
        </button>
        <p className="muted">
          New tablet? <a href="/setup-tablet">Set it up once</a> for the camera scanner and Bluetooth printing.
        </p>
      </form>
    </div>
  );
}
