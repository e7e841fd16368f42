/**
 * RawBT (Android) prints raw bytes handed over in an intent URL: spec §9's "raw print app on
 * the device". Base64 is built in slices so a 200 kB label batch never overflows the stack.
 */
export function rawbtUrl(bytes: Uint8Array): string {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return `intent:base64,${btoa(bin)}#Intent;scheme=rawbt;package=ru.a402d.rawbtprinter;end;`;
}
