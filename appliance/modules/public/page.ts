// Issue 35: the status page a link opens, rendered on the box as plain HTML (no script, no
// staff bundle): a phone shows it under a CSP of default-src 'none' with the one stylesheet.
import type { PublicStatus } from "./model";

/** HTML text: the five characters that could open markup, escaped. */
export const html = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export const shell = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer"><meta name="robots" content="noindex"><title>${html(title)}</title><link rel="stylesheet" href="/public.css"></head><body><main>${body}</main></body></html>`;

const euros = (n: number) => `€${n.toFixed(2)}`;

export function statusPage(s: PublicStatus): string {
  const garments = s.garments.map((g) => `<li>${html(g.name)}${g.quantity > 1 ? ` × ${g.quantity}` : ""}</li>`).join("");
  const stop = (label: string, d: PublicStatus["pickup"]) => (d ? `<p class="stop">${label}: <strong>${html(d.shown)}</strong></p>` : "");
  const phone = s.shop.phone.replace(/[^\d+]/g, "");
  return shell(
    `Ticket ${s.ticket}`,
    `<h1>${html(s.shop.name || "Your dry cleaner")}</h1><p class="ticket">Ticket ${s.ticket}</p><p class="state" data-state>${html(s.state)}</p>${stop("Pickup", s.pickup)}${stop("Delivery", s.delivery)}<h2>Garments</h2><ul>${garments || "<li>None yet</li>"}</ul><p class="balance">${s.balance > 0 ? `To pay: <strong>${euros(s.balance)}</strong>` : "Nothing to pay"}</p>${phone ? `<p class="call"><a href="tel:${html(phone)}">Call the shop: ${html(s.shop.phone)}</a></p>` : ""}`,
  );
}

export const missingPage = (message: string) => shell("Link not valid", `<h1>Link not valid</h1><p>${html(message)}</p>`);

export const PUBLIC_CSS = `body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f6f7f9;color:#1b1f24}main{max-width:28rem;margin:0 auto;padding:1rem}h1{font-size:1.3rem;margin:.5rem 0}h2{font-size:1rem;margin:1rem 0 .25rem}.state{font-size:1.25rem;font-weight:600;background:#fff;border-radius:.5rem;padding:.75rem}.ticket{color:#555;margin:0}ul{padding-left:1.2rem;margin:0}.call a{display:block;text-align:center;background:#1d4ed8;color:#fff;padding:.75rem;border-radius:.5rem;text-decoration:none}form{display:grid;gap:.75rem;background:#fff;border-radius:.5rem;padding:1rem}label{display:grid;gap:.25rem;font-weight:600}input,select,textarea,button{font:inherit;padding:.6rem;border:1px solid #9aa3ad;border-radius:.4rem;width:100%;box-sizing:border-box}textarea{min-height:4rem}button{background:#1d4ed8;color:#fff;border:0;font-weight:600}.error{background:#fde8e8;color:#8a1c1c;border-radius:.5rem;padding:.75rem}`;
