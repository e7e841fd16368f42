/**
 * Builds the React UI into ui/dist and prints the gzipped size of its JavaScript
 * (QUALITY.md: first load ≤ 300 KB gzipped). --public-path=/ keeps deep links working.
 */
import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";

const root = resolve(import.meta.dir, "..");
const out = join(root, "ui/dist");
rmSync(out, { recursive: true, force: true });
const result = await Bun.build({
  entrypoints: [join(root, "ui/index.html")],
  outdir: out,
  minify: true,
  // Rarely used code (the camera's QR fallback) loads on demand.
  splitting: true,
  publicPath: "/",
  naming: { entry: "[name].[ext]", chunk: "[name]-[hash].[ext]", asset: "[name]-[hash].[ext]" },
  define: { "process.env.NODE_ENV": JSON.stringify("production") },
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
let js = 0;
let gz = 0;
let firstGz = 0;
const entryScripts = [...readFileSync(join(out, "index.html"), "utf8").matchAll(/src="\/?([^"]+\.js)"/g)].map((m) => m[1]);
const walk = (dir: string) => {
  for (const f of readdirSync(dir)) {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) walk(p);
    else if (p.endsWith(".js")) {
      const b = readFileSync(p);
      js += b.length;
      const z = gzipSync(b).length;
      gz += z;
      if (entryScripts.some((e) => p.endsWith(e!))) firstGz += z;
    }
  }
};
walk(out);
console.log(
  `ui built into ui/dist: first load ${(firstGz / 1024).toFixed(1)} KB gzipped JavaScript (bar 300 KB); ${(gz / 1024).toFixed(1)} KB with on-demand chunks (${(js / 1024).toFixed(0)} KB raw)`,
);
