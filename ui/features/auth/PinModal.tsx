import { useState } from "react";
import { useLocation } from "wouter";
import { toast } from "../../components/toast";
import { agent } from "../../lib/session";
import { loginEmployee } from "./actions";

/** Spec §2: a modal over home when the shop is logged in but no employee is; Enter submits. */
export function PinModal() {
  const [pin, setPin] = useState("");
  const [busy, setBusy] = useState(false);
  const [, navigate] = useLocation();

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    // PINs are 4 to 8 digits (leading zeros count): anything else is wrong without asking the box.
    if (!/^\d{4,8}$/.test(pin)) {
      toast("Incorrect Pin", "danger");
      return;
    }
    setBusy(true);
    const r = await loginEmployee(pin);
    setBusy(false);
    setPin("");
    if (r === true) navigate("/");
    else toast(r, "danger");
  }

  return (
    <div className="overlay overlay-pin">
      <form className="dialog pin-dialog" role="dialog" aria-modal="true" aria-labelledby="pin-title" onSubmit={submit}>
        <h2 id="pin-title">Who is working?</h2>
        <p className="muted">{agent.value?.agent_name} — enter your PIN.</p>
        <input
          className="pin-input"
          name="pin"
          type="password"
          inputMode="numeric"
          pattern="[0-9]*"
          autoComplete="off"
          aria-label="PIN"
          value={pin}
          onChange={(e) => setPin(e.target.value.replace(/\D/g, "").slice(0, 8))}
          autoFocus
        />
        <button type="submit" className="btn btn-primary btn-block" disabled={busy || !pin}>
          Continue
        </button>
      </form>
    </div>
  );
}
