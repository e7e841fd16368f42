/** VAT inside a gross price (catalogue prices include VAT at 18 %): to the cent, so net + VAT = gross exactly. */
export const VAT_RATE_PERCENT = 18;

/** The VAT in `gross` cents at `percent`, rounded half away from zero; net is gross less it. */
export function vatIn(gross: number, percent = VAT_RATE_PERCENT): { net: number; vat: number } {
  const exact = (Math.abs(gross) * percent) / (100 + percent);
  const vat = Math.sign(gross) * Math.round(exact);
  return { net: gross - vat, vat };
}
