// The demo's catalogue as data (issue 23 split it from ./demoData.ts, which re-exports it): the
// actions, garment categories with their prices, and modifiers that the demo loader (./demo.ts)
// and scripts/gen-reference.ts write. Prices are inputs to the pricing engine, never its rules.

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
