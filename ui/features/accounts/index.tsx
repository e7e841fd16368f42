export { AccountScreen } from "./AccountScreen";
export { AccountsScreen } from "./AccountsScreen";
export { AgedScreen } from "./AgedScreen";
export { InvoiceScreen } from "./InvoiceScreen";
