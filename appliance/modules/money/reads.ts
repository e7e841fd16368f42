// What other modules may read of payments (issue 23: a module's tables are its own). Takings
// have one aggregate (takings.ts, issue 31): home statistics, the sales report and HQ's chain
// view read it through here, as the drawer does inside this module.
export {
  noTakings,
  paidFrom,
  paidQuery,
  sumTakings,
  type TakingsKey,
  type TakingsQuery,
  type TakingsRow,
  takings,
  takingsQuery,
  takingsRows,
  type TenderCents,
  totalTakings,
  type Values,
} from "./takings";
// The accountant's journal (books, issue 34) reads the money per day and shop through these.
export {
  DEPOSIT_DAY_SQL,
  type DepositDay,
  depositDayArgs,
  depositDayRows,
  depositDays,
  type JournalQuery,
  type MoneyDay,
  paymentDays,
  shopNames,
  type VarianceDay,
  varianceDays,
} from "./journalReads";
// Deposit transfers across boxes (issue 34): HQ's side (bookings/transfers.ts) reads a source's copy through these.
export { DEPOSIT_TRANSFER_KIND, type TransferPhase } from "./transferApply";
export { heldAt, transferSideSeen } from "./transfers";
