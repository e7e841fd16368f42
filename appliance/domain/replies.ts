// What a customer's text back means (issue 35), and how a phone number is compared. Pure.
//
// The grammar is small and strict on purpose: a reply acts on a pickup only when it is one of
// the words the reminder asked for. Case, spaces around it and one trailing run of ". ! ?" are
// forgiven ("Yes.", " skip ", "STOP!"); anything more ("skip please", "yes but at 5",
// "y") goes to the inbox, where a person reads it. A wrong guess would send or call off a van.
export type ReplyWord = "yes" | "skip" | "stop";

const WORDS: Record<string, ReplyWord> = { yes: "yes", skip: "skip", stop: "stop" };

/** The reply word this text is, or null when a person has to read it. */
export function parseReply(text: string): ReplyWord | null {
  const t = text
    .normalize("NFKC")
    .trim()
    .replace(/[.!?]+$/u, "")
    .trim()
    .toLowerCase();
  return WORDS[t] ?? null;
}

/** The text every pickup reminder ends with (the words parseReply knows). */
export const REMINDER_ASK = "Reply YES to confirm or SKIP";

/**
 * The part of a phone number two writings of the same mobile share: its digits without an
 * international prefix. Malta's numbers are 8 digits, so the last 8 are compared ("+356 7912
 * 3456", "0035679123456" and "79123456" are the same phone); a shorter number is kept whole.
 */
export function phoneKey(phone: string): string {
  const digits = phone.replace(/\D/g, "");
  return digits.length > 8 ? digits.slice(-8) : digits;
}

/**
 * How many unanswered reminders in a row start the back-off. From then on a customer gets a
 * reminder only every other pickup (the one after a skipped one), until they answer one.
 */
export const BACKOFF_AFTER = 3;

/** Whether this pickup's reminder is held back, given the customer's earlier reminders, newest first. */
export function heldBack(earlier: readonly { outcome: string; answered: boolean }[]): boolean {
  const sent = earlier.filter((r) => r.outcome === "sent");
  const lastSent = sent.slice(0, BACKOFF_AFTER);
  if (lastSent.length < BACKOFF_AFTER || lastSent.some((r) => r.answered)) return false;
  // Every other time: held back unless the latest decision was itself a held-back one.
  return earlier[0]?.outcome !== "skipped_backoff";
}
