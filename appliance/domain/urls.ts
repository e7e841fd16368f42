/**
 * A URL as people may see it: the password (of an SMS phone, an SMTP server, a replica) shown
 * as `***`. Anything that is not a URL is hidden whole: it may be a mistyped secret.
 */
export function maskUrl(text: string | null): string | null {
  if (!text) return text;
  try {
    const u = new URL(text);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(hidden)";
  }
}
