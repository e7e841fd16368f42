import { useState } from "react";
import type { Locality, Preference, Street } from "../../../appliance/modules/places/model";
import { Section } from "../../components/form";
import { toast } from "../../components/toast";
import { LoadFailed } from "../../components/LoadFailed";
import { api, fetchList } from "../../lib/api";
import { useList } from "../../lib/useList";
import { useHqStaff } from "../../app/access";
import { SharedDataNote } from "../catalogue/shared";

/**
 * Localities, their streets, and customer preferences (issue 4: the spec shows only reads;
 * admins maintain them here, reached from the configuration menu). They are shared by every
 * shop, so only head-quarters staff see the add and rename controls (issue 11).
 */
export function PlacesScreen() {
  // Each list says "Could not load" with Retry when it fails (issue 31), never an empty list.
  const localityList = useList(() => fetchList<Locality>("/localities/"));
  const localities = localityList.items ?? [];
  const [selected, setSelected] = useState<number | null>(null);
  const streetList = useList(() => (selected ? fetchList<Street>(`/streets/locality/${selected}`) : Promise.resolve([])), selected ?? 0);
  const streets = streetList.items ?? [];
  const prefList = useList(() => fetchList<Preference>("/preferences/"));
  const prefs = prefList.items ?? [];
  const [newLocality, setNewLocality] = useState("");
  const [newStreet, setNewStreet] = useState("");
  const [newPref, setNewPref] = useState("");
  const stateList = useList(() => fetchList<{ id: number; name: string; is_locality_delivery: boolean }>("/ticketStates/"));
  const states = (stateList.items ?? []).filter((x) => x.is_locality_delivery);
  const [newState, setNewState] = useState("");
  const loadStates = () => void stateList.retry();

  const hq = useHqStaff();
  const loadLocalities = () => void localityList.retry();
  const loadPrefs = () => void prefList.retry();
  const failed = (l: { error: string | null; retry: () => Promise<void> }, what: string) => (
    <LoadFailed what={what} error={l.error} onRetry={() => void l.retry()} />
  );

  async function add(path: string, body: unknown, done: () => void) {
    try {
      await api("POST", path, { body, quiet: true });
      toast("Information Saved");
      done();
    } catch (e) {
      toast(e instanceof Error ? e.message : "Something went wrong", "danger");
    }
  }

  return (
    <div className="grid-2 places">
      {!hq && <SharedDataNote />}
      {failed(localityList, "the localities")}
      {failed(streetList, "the streets")}
      {failed(prefList, "the preferences")}
      {failed(stateList, "the delivery states")}
      <Section title="Localities">
        {hq && (
          <form
            className="toolbar"
            onSubmit={(e) => {
              e.preventDefault();
              if (newLocality.trim()) add("/localities/", { name: newLocality.trim() }, () => (setNewLocality(""), loadLocalities()));
            }}
          >
            <input aria-label="New locality" placeholder="New locality" value={newLocality} onChange={(e) => setNewLocality(e.target.value)} />
            <button className="btn btn-primary" type="submit">
              Add
            </button>
          </form>
        )}
        <ul className="list pick-list" aria-label="Localities">
          {localities.map((l) => (
            <li key={l.id}>
              <button
                type="button"
                className={`row-link pick ${selected === l.id ? "picked" : ""}`}
                aria-pressed={selected === l.id}
                onClick={() => setSelected(l.id)}
              >
                {l.name}
              </button>
            </li>
          ))}
        </ul>
      </Section>
      <div className="stack">
        <Section title={selected ? `Streets of ${localities.find((l) => l.id === selected)?.name ?? ""}` : "Streets"}>
          {selected ? (
            <>
              {hq && (
                <form
                  className="toolbar"
                  onSubmit={(e) => {
                    e.preventDefault();
                    if (newStreet.trim())
                      add("/streets/", { locality_id: selected, name: newStreet.trim() }, () => (setNewStreet(""), void streetList.retry()));
                  }}
                >
                  <input aria-label="New street" placeholder="New street" value={newStreet} onChange={(e) => setNewStreet(e.target.value)} />
                  <button className="btn btn-primary" type="submit">
                    Add
                  </button>
                </form>
              )}
              <ul className="list" aria-label="Streets">
                {streets.map((s) => (
                  <li key={s.id} className="row-link">
                    {s.name}
                  </li>
                ))}
              </ul>
            </>
          ) : (
            <p className="muted">{hq ? "Choose a locality to see and add its streets." : "Choose a locality to see its streets."}</p>
          )}
        </Section>
        <Section title="Delivery states by locality">
          <p className="muted small">
            Tickets out for delivery in a locality (spec: B Kara, Mosta, San Gwann). Renaming moves the tickets in that state with it.
          </p>
          {hq && (
            <form
              className="toolbar"
              onSubmit={(e) => {
                e.preventDefault();
                if (newState.trim()) add("/ticketStates/", { name: newState.trim() }, () => (setNewState(""), loadStates()));
              }}
            >
              <input aria-label="New delivery state" placeholder="New delivery state" value={newState} onChange={(e) => setNewState(e.target.value)} />
              <button className="btn btn-primary" type="submit">
                Add
              </button>
            </form>
          )}
          <ul className="list" aria-label="Delivery states">
            {states.map((st) => (
              <li key={st.id} className="row-link">
                {st.name}
                {hq && (
                  <button
                    type="button"
                    className="btn btn-small"
                    onClick={async () => {
                      const name = window.prompt("New name", st.name)?.trim();
                      if (!name || name === st.name) return;
                      try {
                        await api("PUT", `/ticketStates/${st.id}`, { body: { name }, quiet: true });
                        toast("Information Saved");
                        loadStates();
                      } catch (e) {
                        toast(e instanceof Error ? e.message : "Something went wrong", "danger");
                      }
                    }}
                  >
                    Rename
                  </button>
                )}
              </li>
            ))}
          </ul>
        </Section>
        <Section title="Customer preferences">
          {hq && (
            <form
              className="toolbar"
              onSubmit={(e) => {
                e.preventDefault();
                if (newPref.trim()) add("/preferences/", { name: newPref.trim() }, () => (setNewPref(""), loadPrefs()));
              }}
            >
              <input aria-label="New preference" placeholder="New preference" value={newPref} onChange={(e) => setNewPref(e.target.value)} />
              <button className="btn btn-primary" type="submit">
                Add
              </button>
            </form>
          )}
          <div className="chips" aria-label="Preferences">
            {prefs.map((p) => (
              <span key={p.id} className="chip">
                {p.name}
              </span>
            ))}
          </div>
        </Section>
      </div>
    </div>
  );
}
