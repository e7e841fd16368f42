export { ExpressScreen } from "./Express";
export { StateLogsScreen } from "./StateLogs";
export { TrackingScreen } from "./TrackingScreen";
