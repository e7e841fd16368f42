export { ImportScreen } from "./ImportScreen";
