/**
 * Reads the text lines out of ESC/POS bytes a stand-in printer collected, for browser tests
 * (which may not import the box's drivers): commands skipped, € back from code page 858, runs
 * of spaces as one, so "Expected        €10.00" reads "Expected €10.00".
 */
export function escPosLines(bytes: Uint8Array): string[] {
  const lines: string[] = [];
  let line = "";
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === 0x1b)
      i += bytes[i + 1] === 0x40 ? 1 : 2; // ESC @, or ESC with one argument
    else if (b === 0x1d && bytes[i + 1] === 0x28)
      i += 4 + (bytes[i + 3]! | (bytes[i + 4]! << 8)); // GS ( k: the QR
    else if (b === 0x1d && bytes[i + 1] === 0x56)
      i += 3; // GS V: cut
    else if (b === 0x0a) {
      lines.push(line.replace(/ +/g, " ").trim());
      line = "";
    } else line += b === 0xd5 ? "€" : String.fromCharCode(b);
  }
  return lines;
}
