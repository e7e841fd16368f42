import { useState } from "react";
import { Section } from "../../components/form";
import { toast } from "../../components/toast";
import { BASE } from "../../lib/api";
import { currentToken } from "../../lib/session";

/**
 * Leaving (issue 32): HQ staff download everything the box holds as one zip (GET /export/,
 * HQ staff only on the server: it holds every shop's customers and the PIN hashes). The box
 * makes it in a process of its own and streams it; the browser saves it under the box's name.
 */
export function ExportSection() {
  const [busy, setBusy] = useState(false);
  async function download() {
    setBusy(true);
    try {
      const res = await fetch(`${BASE}/export/`, { headers: { authorization: `token ${currentToken()}` } });
      if (!res.ok) throw new Error(((await res.json().catch(() => null)) as { message?: string } | null)?.message ?? "Something went wrong");
      const name = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? "ironbox-export.zip";
      const a = document.createElement("a");
      a.href = URL.createObjectURL(await res.blob());
      a.download = name;
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
    } catch (e) {
      toast((e as Error).message, "danger");
    } finally {
      setBusy(false);
    }
  }
  return (
    <Section title="Export">
      <div style={{ padding: "0 16px 12px" }}>
        <p className="muted">
          Everything on this box as one zip: a CSV per table and a copy of the database. It holds every shop's customers and the PIN and password hashes: keep
          it where only head-quarters staff can read it.
        </p>
        <button type="button" className="btn" onClick={download} disabled={busy}>
          {busy ? "Exporting…" : "Export"}
        </button>
      </div>
    </Section>
  );
}
