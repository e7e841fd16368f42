// The demo content (IRONBOX_DEMO=1) as data: places, names, the catalogue, agents and
// employees, the demo tickets' states, and the seeded generator both the demo loader
// (./demo.ts) and scripts/gen-reference.ts draw from. Nothing here touches the database.
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

export type ActionKey = "DC" | "L" | "P" | "C" | "S" | "XP";
export const ACTIONS: readonly { key: ActionKey; name: string; up_charge: number; pctOf?: ActionKey }[] = [
  { key: "DC", name: "Dry Cleaning", up_charge: 800 },
  { key: "L", name: "Laundry", up_charge: 300 },
  { key: "P", name: "Pressing", up_charge: 400 },
  { key: "C", name: "Carpets", up_charge: 1200 },
  { key: "S", name: "Stain Removal", up_charge: 300 },
  // 150.00% of Pressing
  { key: "XP", name: "Express Pressing", up_charge: 15000, pctOf: "P" },
];

/** A flat price in cents, or [other action of the same garment, hundredths of a percent]. */
export type Price = number | [ActionKey, number];
export interface GarmentDef {
  name: string;
  prices: Partial<Record<ActionKey, Price>>;
  pieces?: string;
  choose?: boolean;
  qty?: boolean;
  images?: boolean;
}
const XP: Price = ["P", 15000];
export const CATEGORIES: readonly { type: string; name: string; def: ActionKey; garments: GarmentDef[] }[] = [
  {
    type: "Dry Clean",
    name: "Dry Cleaning",
    def: "DC",
    garments: [
      // Pressing a suit costs 60% of dry cleaning it.
      { name: "Suit 2pc", pieces: "Jacket,Trousers", choose: true, prices: { DC: 1500, P: ["DC", 6000], XP, S: 400 } },
      { name: "Suit 3pc", pieces: "Jacket,Trousers,Waistcoat", choose: true, prices: { DC: 1900, P: 1000, XP, S: 400 } },
      { name: "Jacket", prices: { DC: 900, P: 550, S: 300 } },
      { name: "Trousers", prices: { DC: 650, P: 400, XP, S: 300 } },
      { name: "Dress", prices: { DC: 1100, P: 700, S: 400 } },
      { name: "Skirt", prices: { DC: 650, P: 400 } },
      { name: "Coat", prices: { DC: 1500, P: 800 } },
      { name: "Blouse", prices: { DC: 650, P: 350 } },
      { name: "Tie", qty: true, prices: { DC: 400, P: 250 } },
      { name: "Evening Dress", prices: { DC: 2500, P: 1500, S: 600 } },
      { name: "Wedding Dress", images: true, prices: { DC: 9500, P: 4500, S: 1500 } },
    ],
  },
  {
    type: "Laundry",
    name: "Laundry",
    def: "L",
    garments: [
      { name: "Shirt", qty: true, prices: { L: 250, P: 200, XP, S: 250 } },
      { name: "T-Shirt", qty: true, prices: { L: 200, P: 150 } },
      { name: "Socks (pair)", qty: true, prices: { L: 100 } },
      { name: "Bed Sheet", qty: true, prices: { L: 350, P: 250 } },
      { name: "Pillow Case", qty: true, prices: { L: 150, P: 100 } },
      { name: "Towel", qty: true, prices: { L: 200 } },
      { name: "Tablecloth", prices: { L: 450, P: 300, S: 300 } },
    ],
  },
  {
    type: "TECNOWASH",
    name: "Tecnowash",
    def: "L",
    garments: [
      { name: "Wool Jumper", prices: { L: 600 } },
      { name: "Silk Blouse", prices: { L: 700, P: 350 } },
      { name: "Down Jacket", prices: { L: 1800 } },
      { name: "Cashmere Coat", prices: { L: 2200, P: 900 } },
    ],
  },
  {
    type: "Laundry",
    name: "Household",
    def: "L",
    garments: [
      { name: "Duvet Single", prices: { L: 1500 } },
      { name: "Duvet Double", prices: { L: 2000 } },
      { name: "Blanket", prices: { L: 1200 } },
      { name: "Curtains (per m²)", qty: true, prices: { L: 500, P: 300 } },
    ],
  },
  {
    type: "Dry Clean",
    name: "Carpets & Rugs",
    def: "C",
    garments: [
      { name: "Carpet (per m²)", qty: true, prices: { C: 1200, S: 300 } },
      { name: "Rug", prices: { C: 2500, S: 800 } },
    ],
  },
];

export type ModType = "COLOR" | "DESIGN" | "MATERIAL" | "STAIN" | "BRAND" | "TAILOR" | "EXPRESS";
export interface ModDef {
  name: string;
  up?: number;
  pct?: boolean;
  image?: string;
  children?: ModDef[];
}
export const MODIFIERS: Record<ModType, ModDef[]> = {
  COLOR: [
    { name: "Black", image: "color:#111827" },
    { name: "White", image: "color:#ffffff" },
    { name: "Navy", image: "color:#1e3a8a" },
    { name: "Red", image: "color:#b91c1c" },
    { name: "Beige", image: "color:#d6c6a8" },
    { name: "Grey", image: "color:#6b7280" },
    { name: "Green", image: "color:#166534" },
    { name: "Brown", image: "color:#78350f" },
  ],
  DESIGN: [{ name: "Plain" }, { name: "Striped" }, { name: "Checked" }, { name: "Floral" }, { name: "Pleated", up: 200 }, { name: "Sequinned", up: 300 }],
  MATERIAL: [
    { name: "Cotton" },
    { name: "Wool" },
    { name: "Linen" },
    { name: "Polyester" },
    { name: "Silk", up: 500 },
    { name: "Cashmere", up: 500 },
    { name: "Velvet", up: 400 },
    { name: "Leather", up: 1500 },
  ],
  STAIN: [
    {
      name: "Wine",
      up: 300,
      children: [
        { name: "Red Wine", up: 400 },
        { name: "White Wine", up: 200 },
      ],
    },
    {
      name: "Oil",
      up: 400,
      children: [
        { name: "Cooking Oil", up: 400 },
        { name: "Engine Oil", up: 600 },
      ],
    },
    {
      name: "Ink",
      up: 500,
      children: [
        { name: "Ballpoint", up: 500 },
        { name: "Fountain Pen", up: 600 },
      ],
    },
    { name: "Coffee", up: 250 },
    { name: "Blood", up: 300 },
    { name: "Grass", up: 250 },
    { name: "Make-up", up: 300 },
  ],
  // A 10% designer-care surcharge is a percentage; the others are flat.
  BRAND: [
    { name: "Hugo Boss" },
    { name: "Armani", up: 1000, pct: true },
    { name: "Zara" },
    { name: "Marks & Spencer" },
    { name: "Massimo Dutti" },
    { name: "Burberry", up: 1000, pct: true },
  ],
  TAILOR: [
    { name: "Hem Trousers", up: 800 },
    { name: "Shorten Sleeves", up: 1200 },
    { name: "Replace Zip", up: 1000 },
    { name: "Take In Waist", up: 1200 },
    { name: "Sew Button", up: 200 },
  ],
  EXPRESS: [
    { name: "Same Day", up: 10000, pct: true },
    { name: "Next Day", up: 5000, pct: true },
    { name: "Third Day", up: 500 },
    { name: "Fourth Day", up: 300 },
    { name: "Fifth Day", up: 200 },
    { name: "Sixth Day", up: 100 },
  ],
};
export const MODIFIER_TYPES = Object.keys(MODIFIERS) as ModType[];

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
