// The demo content (IRONBOX_DEMO=1) as data: places, names, the catalogue, agents and
// employees, the demo tickets' states, and the seeded generator both the demo loader
// (./demo.ts) and scripts/gen-reference.ts draw from. Nothing here touches the database.
// The catalogue (actions, garments, modifiers) lives in ./demoCatalogue.ts, re-exported here.
// ---------------------------------------------------------------------------------------------
// Shared helpers (also used by scripts/gen-reference.ts). Both price through the appliance's
// pricing engine (appliance/domain/pricing.ts), never a copy of its rules.
// ---------------------------------------------------------------------------------------------

/** mulberry32: a tiny seeded PRNG, so demo and reference data are the same on every run. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    /** Integer in [lo, hi], both inclusive. */
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    chance: (p: number) => next() < p,
    pick: <T>(arr: readonly T[]): T => {
      if (arr.length === 0) throw new Error("pick from an empty list");
      return arr[Math.floor(next() * arr.length)]!;
    },
  };
}
export type Prng = ReturnType<typeof prng>;

export const DAY_MS = 86_400_000;
export const isoDay = (d: Date) => d.toISOString().slice(0, 10);

const PREDECESSOR: Record<string, string | null> = {
  CREATED: null,
  "AWAITING PICKUP": "CREATED",
  "PICKED UP": "AWAITING PICKUP",
  MARKED: "PICKED UP",
  TECNOWASH: "MARKED",
  "IN PROGRESS": "MARKED",
  "AWAITING DELIVERY": "IN PROGRESS",
  "OUT FOR DELIVERY": "AWAITING DELIVERY",
  "B Kara": "AWAITING DELIVERY",
  Mosta: "AWAITING DELIVERY",
  "San Gwann": "AWAITING DELIVERY",
  DELIVERED: "OUT FOR DELIVERY",
  "DELIVERED AND PAID": "OUT FOR DELIVERY",
  "DELIVERED NOT PAID": "OUT FOR DELIVERY",
  CLOSED: "DELIVERED AND PAID",
};

/**
 * The states a ticket went through to reach `state`, oldest first, for its state logs.
 * Garments brought to the counter skip the pickup states.
 */
export function statePath(state: string, pickedUp: boolean): string[] {
  const path: string[] = [];
  for (let s: string | null | undefined = state; s != null; s = PREDECESSOR[s]) path.unshift(s);
  if (path.length === 0 || path[0] !== "CREATED") throw new Error(`no path to state ${JSON.stringify(state)}`);
  return pickedUp ? path : path.filter((s, i) => i === path.length - 1 || (s !== "AWAITING PICKUP" && s !== "PICKED UP"));
}

/** States at or after MARKED: the pieces have been sorted and labelled. */
export const isSortedState = (state: string) => !["CREATED", "AWAITING PICKUP", "PICKED UP"].includes(state);
/** States in which the garment has been (or is being) processed. */
export const isProcessedState = (state: string) => isSortedState(state) && state !== "MARKED" && state !== "TECNOWASH";

// ---------------------------------------------------------------------------------------------
// Demo content
// ---------------------------------------------------------------------------------------------

export * from "./demoCatalogue";

export const LOCALITIES: Record<string, readonly string[]> = {
  Birkirkara: ["Triq il-Wied", "Triq Fleur-de-Lys", "Triq Psaila", "Triq il-Kbira", "Triq in-Naxxar", "Triq Sant' Elena"],
  Mosta: ["Triq il-Kostituzzjoni", "Triq il-Kungress Ewkaristiku", "Triq Grognet", "Pjazza Rotunda", "Triq il-Barrieri"],
  "San Gwann": ["Triq Birkirkara", "Triq ix-Xorrox", "Triq Mikiel Anton Vassalli", "Triq tal-Balal", "Triq Santa Margerita"],
  Sliema: ["Triq it-Torri", "Triq ix-Xatt", "Triq Bisazza", "Triq Manwel Dimech", "Triq Dingli"],
  "St. Julian's": ["Triq San Gorg", "Triq Spinola", "Triq Ball", "Triq Gorg Borg Olivier", "Triq Santu Wistin"],
  Naxxar: ["Triq Tal-Labour", "Triq Vittorja", "Pjazza Vittorja", "Triq San Pawl tat-Targa", "Triq il-Kbira"],
  Qormi: ["Triq San Bastjan", "Triq il-Kbira", "Triq Dun Mikiel Xerri", "Triq il-Fran"],
  Zebbug: ["Triq il-Kbira", "Triq Mikiel Anton Vassalli", "Pjazza San Filep", "Triq Dun Karm"],
  Attard: ["Triq il-Kbira", "Triq Sant' Anna", "Triq Hal Warda", "Triq iz-Zagfran"],
  Balzan: ["Vjal de Paule", "Triq Idmejda", "Triq il-Kbira", "Triq Birkirkara"],
  Msida: ["Triq ix-Xatt ta' l-Imsida", "Triq il-Wied", "Triq Dun Karm", "Triq il-Kbira"],
  Valletta: ["Triq ir-Repubblika", "Triq il-Merkanti", "Triq San Pawl", "Triq l-Ifran", "Triq Zekka"],
  Hamrun: ["Triq il-Kbira San Guzepp", "Triq Villambrosa", "Triq il-Kappillan Mifsud"],
  Zabbar: ["Triq Sant' Ubaldeska", "Triq Hompesch", "Triq il-Kunsill tal-Ewropa", "Triq il-Kbira"],
};

export const PREFERENCES = ["No starch", "Light starch", "Hanger", "Folded", "Eco wash", "Hypoallergenic detergent", "Call before delivery"];

export const MALE_NAMES = [
  "Joseph",
  "Carmel",
  "Anthony",
  "Mario",
  "Charles",
  "Paul",
  "Raymond",
  "Kevin",
  "Matthew",
  "Luke",
  "Daniel",
  "Mark",
  "Kurt",
  "Clayton",
  "Ryan",
  "Nicholas",
  "George",
  "Emanuel",
  "Saviour",
  "Alan",
];
export const FEMALE_NAMES = [
  "Maria",
  "Rita",
  "Doris",
  "Josephine",
  "Carmen",
  "Marthese",
  "Antoinette",
  "Roberta",
  "Graziella",
  "Nicole",
  "Claire",
  "Sarah",
  "Anna",
  "Rebecca",
  "Francesca",
  "Elaine",
  "Stephanie",
  "Rachel",
  "Christine",
  "Miriam",
];
export const SURNAMES = [
  "Camilleri",
  "Borg",
  "Vella",
  "Farrugia",
  "Zammit",
  "Galea",
  "Grech",
  "Attard",
  "Spiteri",
  "Azzopardi",
  "Micallef",
  "Caruana",
  "Cassar",
  "Pace",
  "Mifsud",
  "Sammut",
  "Debono",
  "Agius",
  "Fenech",
  "Bonnici",
  "Xuereb",
  "Schembri",
  "Muscat",
  "Mizzi",
  "Cutajar",
  "Said",
  "Abela",
  "Gauci",
  "Bugeja",
  "Buttigieg",
  "Briffa",
  "Calleja",
  "Ellul",
  "Formosa",
  "Tabone",
  "Zerafa",
  "Saliba",
  "Portelli",
  "Psaila",
  "Chetcuti",
];
export const OCCUPATIONS = [
  "Teacher",
  "Nurse",
  "Accountant",
  "Lawyer",
  "Engineer",
  "Pharmacist",
  "Clerk",
  "Retired",
  "Architect",
  "Doctor",
  "Manager",
  "Self-employed",
  "",
];
export const EMAIL_DOMAINS = ["gmail.com", "maltanet.net", "melita.com", "yahoo.com", "go.net.mt"];

/** Title from gender and a deterministic draw: mostly Mr./Mrs., some Dr., Ing. and Profs. */
export function pickTitle(r: Prng, male: boolean): string {
  const x = r.next();
  if (x < 0.08) return "Dr.";
  if (x < 0.12) return "Ing.";
  if (x < 0.14) return "Profs.";
  return male ? "Mr." : "Mrs.";
}

/** The spec derives first and last name by splitting full_name on a space (the first one). */
export function splitName(full: string) {
  const i = full.indexOf(" ");
  return i < 0 ? { first_name: full, last_name: "" } : { first_name: full.slice(0, i), last_name: full.slice(i + 1) };
}

export const MONTHS = ["JANUARY", "FEBRUARY", "MARCH", "APRIL", "MAY", "JUNE", "JULY", "AUGUST", "SEPTEMBER", "OCTOBER", "NOVEMBER", "DECEMBER"];
/** Summer and Christmas are the busy months. */
export const PEAK_MONTHS = new Set(["JUNE", "JULY", "AUGUST", "SEPTEMBER", "DECEMBER"]);

export const EMPLOYEES: readonly {
  agent: "hq" | "birkirkara" | "mosta";
  full_name: string;
  role: "admin" | "manager" | "employee" | "driver";
  pin: string;
  hq?: boolean;
  localities?: string[];
}[] = [
  { agent: "hq", full_name: "Maria Camilleri", role: "admin", pin: "1111", hq: true },
  { agent: "hq", full_name: "Joseph Borg", role: "manager", pin: "2222" },
  { agent: "hq", full_name: "Anna Vella", role: "employee", pin: "3333" },
  { agent: "hq", full_name: "Mark Farrugia", role: "driver", pin: "4444", hq: true, localities: ["Birkirkara", "Balzan", "Attard", "San Gwann", "Msida"] },
  { agent: "birkirkara", full_name: "Claire Zammit", role: "admin", pin: "5555" },
  { agent: "birkirkara", full_name: "Luke Grech", role: "employee", pin: "6666" },
  { agent: "mosta", full_name: "Sarah Azzopardi", role: "manager", pin: "7777" },
  { agent: "mosta", full_name: "Daniel Micallef", role: "driver", pin: "8888", localities: ["Mosta", "Naxxar"] },
];

/** Demo tickets, one per entry, so every list and screen has something in it. */
export const DEMO_TICKET_STATES = [
  ...Array<string>(4).fill("CREATED"),
  ...Array<string>(4).fill("AWAITING PICKUP"),
  ...Array<string>(3).fill("PICKED UP"),
  "TECNOWASH",
  ...Array<string>(2).fill("MARKED"),
  ...Array<string>(6).fill("IN PROGRESS"),
  ...Array<string>(5).fill("AWAITING DELIVERY"),
  ...Array<string>(2).fill("OUT FOR DELIVERY"),
  "B Kara",
  "Mosta",
  "San Gwann",
  ...Array<string>(3).fill("DELIVERED"),
  ...Array<string>(3).fill("DELIVERED AND PAID"),
  ...Array<string>(2).fill("DELIVERED NOT PAID"),
  ...Array<string>(3).fill("CLOSED"),
];

export const PICKUP_CHARGE = 300;
export const DELIVERY_CHARGE = 300;
export const DEMO_SEED = 20260101;
