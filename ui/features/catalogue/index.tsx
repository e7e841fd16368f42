/** Catalogue screens (admin): actions, garments, modifiers, prices, configuration menu. */
export { ActionDetail, ActionsList } from "./Actions";
export { ConfigurationMenu } from "./Configuration";
export { CategoryDetail, GarmentsList, SubCategoryDetail } from "./Garments";
export { ModifierDetail, ModifiersList } from "./Modifiers";
export { PriceDetail } from "./PriceDetail";
export { QuickGarments } from "./QuickGarments";
