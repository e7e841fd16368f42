/** Catalogue screens (admin): actions, garments, modifiers, prices, configuration menu. */
import { ComingSoon } from "../common/ComingSoon";

type Page = (props: { params: Record<string, string | undefined> }) => React.ReactElement;
export const ActionsList: Page = () => <ComingSoon title="Actions" />;
export const ActionDetail: Page = () => <ComingSoon title="Action" />;
export const GarmentsList: Page = () => <ComingSoon title="Garments" />;
export const CategoryDetail: Page = () => <ComingSoon title="Garment category" />;
export const SubCategoryDetail: Page = () => <ComingSoon title="Garment" />;
export const PriceDetail: Page = () => <ComingSoon title="Action price" />;
export const ModifiersList: Page = () => <ComingSoon title="Modifiers" />;
export const ModifierDetail: Page = () => <ComingSoon title="Modifier" />;
export const ConfigurationMenu: Page = () => <ComingSoon title="Configuration" />;
export const QuickGarments: Page = () => <ComingSoon title="Quick prices" />;
