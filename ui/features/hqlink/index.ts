export { LinkScreen } from "./LinkScreen";
