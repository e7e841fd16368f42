import { existsSync, readFileSync, statSync } from "node:fs";
import { join, normalize, sep } from "node:path";
import { SECURITY_HEADERS } from "./security";

/**
 * Serves the built UI with an SPA fallback: a file that exists is sent (hashed bundle
 * files cached for a year, everything else revalidated), any other GET gets index.html so
 * deep links like /customers/12/new-ticket/0 load the app. Paths cannot escape uiDir.
 */
export function uiResponder(uiDir: string) {
  const root = normalize(uiDir) + sep;
  const index = join(uiDir, "index.html");
  return (pathname: string): Response | null => {
    if (!existsSync(index)) return null;
    let rel: string;
    try {
      rel = decodeURIComponent(pathname);
    } catch {
      rel = "/";
    }
    const file = normalize(join(uiDir, rel));
    if (file.startsWith(root) && existsSync(file) && statSync(file).isFile()) {
      const hashed = /-[a-z0-9]{8,}\.\w+$/i.test(file);
      return new Response(Bun.file(file), {
        headers: { ...SECURITY_HEADERS, "cache-control": hashed ? "public, max-age=31536000, immutable" : "no-cache" },
      });
    }
    return new Response(Bun.file(index), { headers: { ...SECURITY_HEADERS, "content-type": "text/html; charset=utf-8", "cache-control": "no-cache" } });
  };
}

/**
 * The id of the UI build in uiDir (scripts/build-ui.ts writes build.json beside index.html), or
 * null when there is none. Sent with every API answer so an open tablet learns of an upgrade
 * (ui/lib/release.ts).
 */
export function uiBuildOf(uiDir: string | undefined): string | null {
  if (!uiDir) return null;
  try {
    const build = (JSON.parse(readFileSync(join(uiDir, "build.json"), "utf8")) as { build?: unknown }).build;
    return typeof build === "string" && /^[\w.+-]{1,80}$/.test(build) ? build : null;
  } catch {
    return null;
  }
}
