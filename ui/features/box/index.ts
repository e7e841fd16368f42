export { BoxScreen } from "./BoxScreen";
export { BoxWarning } from "./BoxWarning";
