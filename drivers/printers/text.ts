/**
 * Text from the database (names, descriptions, comments) on its way into a printer language:
 * control characters (C0, DEL, C1) become spaces, so no text can end a field, start a command
 * or add a line. Only the encoders emit control bytes. Used by the shared label and receipt
 * layouts, so PPLZ, PPLA and ESC/POS all get it.
 */
export const printable = (s: string) => s.replace(/[\x00-\x1f\x7f-\x9f]/g, " ");
