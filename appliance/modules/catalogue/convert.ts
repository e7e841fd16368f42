/** API numbers (euros, or percents) ↔ database hundredths (cents, or hundredths of a percent). */
export const toHundredths = (n: number) => Math.round(n * 100);
export const fromHundredths = (n: number) => n / 100;
