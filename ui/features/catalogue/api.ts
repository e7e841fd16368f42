import { api, apiList } from "../../lib/api";

export interface Action {
  id: number;
  name: string;
  image: string | null;
  visible: boolean;
  is_percentage: boolean;
  is_percentage_of: number | null;
  up_charge: number;
  images_required: boolean;
  discount: string;
  price: number;
}
export interface SubCategory {
  id: number;
  garment_category_id: number;
  name: string;
  visible: boolean;
  image: string | null;
  discount: string;
  pieces: string;
  images_required: boolean;
  show_choose_pieces: boolean;
  order: number;
  allow_quantity: boolean;
  prices?: { id: number; action_id: number; action: string; price: number }[];
}
export interface Category {
  id: number;
  type: "Dry Clean" | "Laundry" | "TECNOWASH";
  name: string;
  visible: boolean;
  image: string | null;
  order: number;
  default_action_id: number | null;
  sub_categories: SubCategory[];
}
export interface Price {
  id: number;
  garment_sub_category_id: number;
  action_id: number;
  price: number;
  discount: string | null;
  is_percentage_of: number | null;
  effective_price: number;
}
export const MODIFIER_TYPES = ["COLOR", "DESIGN", "MATERIAL", "STAIN", "BRAND", "TAILOR", "EXPRESS"] as const;
export interface Modifier {
  id: number;
  parent_id: number;
  type: (typeof MODIFIER_TYPES)[number];
  name: string;
  image: string | null;
  discount: string;
  visible: boolean;
  up_charge: number;
  order: number;
  is_percentage: boolean;
}
export const CATEGORY_TYPES = ["Dry Clean", "Laundry", "TECNOWASH"] as const;

export const listActions = () => apiList<Action>("/actions/");
export const listCategories = () => apiList<Category>("/garmentCategories/");
export const listSubCategories = () => apiList<SubCategory>("/garmentSubCategories/");
export const listModifiers = () => apiList<Modifier>("/modifiers/");
export const listPrices = (query: { garment_sub_category_id?: number; action_id?: number }) => apiList<Price>("/actionGarmentSubCategories/", query);

/** Spec §5: ID 0 creates, any other id updates. */
export const save = <T>(path: string, id: number, body: unknown) => (id ? api<T>("PUT", `${path}${id}`, { body, quiet: true }) : api<T>("POST", path, { body, quiet: true }));
