import { useEffect, useState } from "react";
import { displayDate } from "../../../appliance/domain/format";
import type { TabletSetup as Setup } from "../../../appliance/modules/lan/model";
import { api } from "../../lib/api";
import { importOrReload } from "../../lib/release";

/** What needs a secure context here: the camera scanner and Bluetooth label printing. */
function secureFeatures() {
  const nav = navigator as Navigator & { bluetooth?: unknown };
  return [
    { name: "Camera scanner", on: !!navigator.mediaDevices?.getUserMedia },
    { name: "Bluetooth printing", on: !!nav.bluetooth },
  ];
}

/**
 * The host a tablet reaches the box by: the one this page was opened with, unless that is the
 * box itself (localhost), which a tablet scanning the code could not reach: then the box's
 * first LAN address, or its mDNS name.
 */
function tabletHost(setup: Setup): string {
  const here = location.hostname;
  if (!["localhost", "127.0.0.1", "[::1]"].includes(here)) return here;
  const lan = setup.certificate?.names.find((n) => /^\d+\.\d+\.\d+\.\d+$/.test(n) && !n.startsWith("127."));
  return lan ?? setup.host_name;
}

/** How long after the box replaced its CA the set-up page says so (tablets are set up again within weeks). */
const REPLACED_NOTICE_DAYS = 90;
const formatDate = (iso: string) => new Date(iso).toLocaleDateString("en-GB", { day: "2-digit", month: "2-digit", year: "numeric" });

/**
 * Issue 16: a tablet's one-time set-up, public and on plain HTTP (the box does not move this
 * page to HTTPS): download the box's certificate authority by QR code, install it, compare its
 * fingerprint, then open the UI over HTTPS, where the camera and Bluetooth work.
 */
export function TabletSetup() {
  const [setup, setSetup] = useState<Setup | null | "error">(null);
  const [qr, setQr] = useState<string | null>(null);
  const secure = window.isSecureContext;
  const host = setup && setup !== "error" ? tabletHost(setup) : location.hostname;
  const caUrl = setup && setup !== "error" ? `http://${host}:${setup.http_port}${setup.ca?.url ?? "/ca.crt"}` : null;

  useEffect(() => {
    api<Setup>("GET", "/lan/tablet-setup", { quiet: true })
      .then(setSetup)
      .catch(() => setSetup("error"));
  }, []);
  useEffect(() => {
    if (!caUrl) return;
    // qrcode loads only here, so the first load of the app stays small.
    importOrReload(() => import("qrcode")).then((QR) => QR.toDataURL(caUrl, { margin: 2, width: 240 }).then(setQr));
  }, [caUrl]);

  if (setup === null) return <p className="muted">Loading…</p>;
  if (setup === "error") return <p className="form-error">The box did not answer; check that this tablet is on the shop Wi-Fi.</p>;
  const httpsUrl = setup.https_port ? `https://${host}:${setup.https_port}/` : null;
  const byName = setup.https_port ? `https://${setup.host_name}:${setup.https_port}/` : null;

  return (
    <div className="login-page">
      <div className="card stack" style={{ maxWidth: 640, margin: "0 auto", padding: 24 }}>
        <h1 style={{ margin: 0 }}>Set up this tablet</h1>
        <p data-testid="secure-context" style={{ fontWeight: 600, color: secure ? "var(--ok)" : "var(--warn)" }}>
          {secure
            ? "This tab is a secure connection: the camera scanner and Bluetooth printing can work."
            : "This tab is not a secure connection: the camera scanner and Bluetooth printing are off until the tablet trusts the box."}
        </p>
        <ul className="muted" style={{ margin: 0 }}>
          {secureFeatures().map((f) => (
            <li key={f.name}>
              {f.name}: {f.on ? "available" : "not available"}
            </li>
          ))}
        </ul>
        {!setup.ca || !httpsUrl ? (
          <p>This box serves no HTTPS (it was started with IRONBOX_HTTPS=0); ask whoever installed it.</p>
        ) : (
          <>
            {setup.ca.replaced_at && Date.now() - Date.parse(setup.ca.replaced_at) < REPLACED_NOTICE_DAYS * 86_400_000 && (
              <p data-testid="ca-replaced" className="form-error" style={{ fontWeight: 600 }}>
                This box replaced its certificate on {formatDate(setup.ca.replaced_at)}: the new one may only vouch for this box's own names and addresses.
                Every tablet set up before then must install the new certificate below (and may remove the old "Ironbox" one), or it will show a certificate
                error.
              </p>
            )}
            <h2 style={{ marginBottom: 0 }}>Once per tablet</h2>
            <ol style={{ lineHeight: 1.6 }}>
              <li>
                Scan this code with the tablet's camera, or open <a href={caUrl!}>{caUrl}</a>, to download the box's certificate.
                <div>{qr && <img src={qr} alt={`QR code of ${caUrl}`} width={240} height={240} data-testid="ca-qr" />}</div>
              </li>
              <li>
                On Android open <b>Settings › Security › Encryption &amp; credentials › Install a certificate › CA certificate</b> (on some tablets: Settings ›
                Security › More security settings), tap <b>Install anyway</b>, and pick the downloaded file ({setup.host_name.replace(/\.local$/, "-ca.crt")}).
              </li>
              <li>
                Before you install it, check that its SHA-256 fingerprint reads:
                <code data-testid="ca-fingerprint" style={{ display: "block", wordBreak: "break-all", margin: "6px 0" }}>
                  {setup.ca.sha256_fingerprint}
                </code>
              </li>
              <li>
                Open the box over HTTPS: <a href={httpsUrl}>{httpsUrl}</a>
                {byName && byName !== httpsUrl && (
                  <>
                    {" "}
                    (or by name: <a href={byName}>{byName}</a>)
                  </>
                )}{" "}
                and add it to the home screen (browser menu › Add to Home screen / Install app).
              </li>
            </ol>
            <p className="muted">
              The certificate this box serves is valid until {setup.certificate ? displayDate(setup.certificate.expires_at) : "—"}; the box renews it itself.
              The certificate authority you install lasts until {displayDate(setup.ca.expires_at)}.
            </p>
          </>
        )}
        <a href="/">Back to the login</a>
      </div>
    </div>
  );
}
