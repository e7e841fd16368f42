/**
 * A count with its noun, singular for exactly one ("1 payment", "0 payments", "2 refunds"):
 * the one rule for count texts on the screens (issue 31). `many` for irregular plurals.
 */
export const countOf = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
