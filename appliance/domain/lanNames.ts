// The box's names on the shop LAN (issue 16): pure, shared by the certificate, mDNS and the UI.

/** `ironbox-<site>.local`: the box's stable mDNS host name (a DNS label: a-z, 0-9, hyphens). */
export function stableHostName(site: string): string {
  const label = site
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 54)
    .replace(/-+$/, "");
  return `ironbox${label ? `-${label}` : ""}.local`;
}
