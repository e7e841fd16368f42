import type { Action, Category, Modifier, Price, SubCategory } from "../../../appliance/modules/catalogue/model";
import { fetchList } from "../../lib/api";

// The catalogue's shapes come from the box's contract; the value lists from the domain.
export type { Action, Category, Modifier, Price, SubCategory } from "../../../appliance/modules/catalogue/model";
export { CATEGORY_TYPES, MODIFIER_TYPES } from "../../../appliance/domain/catalogue";

export const listActions = () => fetchList<Action>("/actions/");
export const listCategories = () => fetchList<Category>("/garmentCategories/");
export const listSubCategories = () => fetchList<SubCategory>("/garmentSubCategories/");
export const listModifiers = () => fetchList<Modifier>("/modifiers/");
export const listPrices = (query: { garment_sub_category_id?: number; action_id?: number }) => fetchList<Price>("/actionGarmentSubCategories/", query);
