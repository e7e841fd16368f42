import { existsSync, statSync } from "node:fs";
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
