import { useCallback, useEffect, useState } from "react";
import type { SettingsInvalid } from "../../../appliance/modules/printing/model";
import type { AttachedDevices, GunInput, GunSettings, GunState } from "../../../appliance/modules/scanners/model";
import { Field, Section } from "../../components/form";
import { toast } from "../../components/toast";
import { api, ApiError } from "../../lib/api";
import { SettingsInvalidBanner } from "../printing/PrintersScreen";

const hex = (n: number) => n.toString(16).padStart(4, "0");
const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 30) || "gun";

/**
 * Barcode guns wired to the box (issue 6: the device is chosen in settings). Lists what is
 * attached, adds it under a name, shows each gun's state; tablets then pair with a gun on
 * their tracking screen.
 */
export function ScannersScreen() {
  const [guns, setGuns] = useState<GunState[]>([]);
  const [invalid, setInvalid] = useState<SettingsInvalid | null>(null);
  const [devices, setDevices] = useState<AttachedDevices | null>(null);
  const [name, setName] = useState("");
  const load = useCallback(async () => {
    const settings = await api<GunSettings>("GET", "/scanners/settings");
    setGuns(settings.guns);
    setInvalid(settings.invalid ?? null);
    setDevices(await api<AttachedDevices>("GET", "/scanners/devices"));
  }, []);
  useEffect(() => void load().catch(() => {}), [load]);

  async function save(next: GunInput[]) {
    try {
      setGuns(await api<GunState[]>("PUT", "/scanners/", { body: next.map(({ ...g }) => stripState(g)), quiet: true }));
      setInvalid(null); // a good list replaces settings that no longer validated
      toast("Settings saved.");
    } catch (e) {
      toast(e instanceof ApiError ? e.message : "Something went wrong", "danger");
    }
  }
  const add = (g: GunInput) => {
    if (guns.some((x) => x.id === g.id)) return toast("That gun is already set up", "warning");
    void save([...guns, g]);
    setName("");
  };

  return (
    <div className="stack">
      {invalid && <SettingsInvalidBanner what="gun" invalid={invalid} />}
      <Section title="Guns at the box">
        {guns.length === 0 ? (
          <p className="muted">No gun is set up. Plug one into the box, then add it below.</p>
        ) : (
          <ul className="list" aria-label="Guns">
            {guns.map((g) => (
              <li key={g.id} className="row-link">
                <span className="row-main">
                  <strong>{g.name}</strong>
                  <span className="muted">
                    {g.kind === "serial"
                      ? `${g.path} · ${g.baud} baud`
                      : g.kind === "evdev"
                        ? `keyboard · ${g.path}`
                        : `USB ${hex(g.vendorId)}:${hex(g.productId)}`}
                  </span>
                </span>
                <span className="toolbar">
                  <span className={`badge gun-${g.status}`} title={g.detail}>
                    {g.status}
                  </span>
                  <button type="button" className="btn btn-small btn-danger" onClick={() => save(guns.filter((x) => x.id !== g.id))}>
                    Remove
                  </button>
                </span>
              </li>
            ))}
          </ul>
        )}
      </Section>
      <Section
        title="Attached devices"
        actions={
          <button type="button" className="btn btn-small" onClick={() => load()}>
            Refresh
          </button>
        }
      >
        <Field label="Name for the gun you add">
          <input aria-label="Gun name" placeholder="Counter gun" value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <ul className="list" aria-label="Attached devices">
          {devices?.serial.map((d) => (
            <li key={d.path} className="row-link">
              <span className="row-main">
                <strong>{d.name}</strong>
                <span className="muted">
                  USB-serial · {d.path}
                  {!d.scanner && " · not known as a scanner: only head office staff may add it"}
                </span>
              </span>
              <button
                type="button"
                className="btn btn-small btn-primary"
                onClick={() => add({ id: slug(name || d.name), name: name || d.name, kind: "serial", path: d.path, baud: 9600 })}
              >
                Add
              </button>
            </li>
          ))}
          {devices?.keyboards.map((d) => (
            <li key={d.path} className="row-link">
              <span className="row-main">
                <strong>{d.name}</strong>
                <span className="muted">
                  keyboard-wedge · {d.path}
                  {!d.scanner && " · not known as a scanner: only head office staff may add it"}
                </span>
              </span>
              <button
                type="button"
                className="btn btn-small btn-primary"
                onClick={() => add({ id: slug(name || d.name), name: name || d.name, kind: "evdev", path: d.path })}
              >
                Add
              </button>
            </li>
          ))}
          {devices?.hid.map((d) => (
            <li key={`${d.vendorId}:${d.productId}`} className="row-link">
              <span className="row-main">
                <strong>{d.product ?? "HID device"}</strong>
                <span className="muted">
                  {d.manufacturer ?? ""} USB {hex(d.vendorId)}:{hex(d.productId)}
                  {!d.scanner && " · not known as a scanner: only head office staff may add it"}
                </span>
              </span>
              <button
                type="button"
                className="btn btn-small btn-primary"
                onClick={() =>
                  add({ id: slug(name || d.product || "hid"), name: name || d.product || "HID gun", kind: "hid", vendorId: d.vendorId, productId: d.productId })
                }
              >
                Add
              </button>
            </li>
          ))}
        </ul>
        {devices && devices.serial.length + devices.keyboards.length + devices.hid.length === 0 && (
          <p className="muted">Nothing attached that looks like a gun.</p>
        )}
        {devices?.hid_error && <p className="muted small">HID devices cannot be listed on this box: {devices.hid_error}</p>}
      </Section>
    </div>
  );
}

function stripState(g: GunInput & { status?: unknown; detail?: unknown }): GunInput {
  const { status: _status, detail: _detail, ...gun } = g;
  return gun;
}
