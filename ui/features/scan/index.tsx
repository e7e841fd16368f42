export { ExpressScreen } from "./Express";
export { StateLogsScreen } from "./StateLogs";
export { TrackingScreen } from "./TrackingScreen";
export { RacksScreen } from "./Racks";
export { UnclaimedScreen } from "./Unclaimed";
