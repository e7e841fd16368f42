/**
 * Builds the React UI into ui/dist and prints the gzipped size of its JavaScript
 * (QUALITY.md: first load ≤ 300 KB gzipped). --public-path=/ keeps deep links working.
 * `--out <dir>` builds elsewhere: npm test builds its own copy for its boxes (IRONBOX_UI_DIR),
 * so a second run in the same checkout never rebuilds the UI under the first one's tablets.
 */
import { copyFileSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { injectManifest } from "@serwist/build";
import { iconPng } from "./icons";

const root = resolve(import.meta.dir, "..");
const outArg = process.argv.indexOf("--out");
const out = outArg > 0 ? resolve(process.argv[outArg + 1]!) : join(root, "ui/dist");
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

// Installable web app (issue 16): manifest, icons, and the service worker, whose precache
// list is the files just built (sw.ts says what it caches and what never).
copyFileSync(join(root, "ui/manifest.webmanifest"), join(out, "manifest.webmanifest"));
// Linked here, not in ui/index.html: Bun's HTML bundler would try to resolve files it does not make.
const indexHtml = join(out, "index.html");
// The build's id, in the page and beside it: the box sends it with every API answer, so a tablet
// opened before an upgrade knows to reload (ui/lib/release.ts). Release version plus a stamp, so
// two builds of one version (a fix rebuilt on the box) still differ.
const version = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string }).version;
const build = process.env.IRONBOX_UI_BUILD ?? `${version}+${Date.now().toString(36)}`;
if (!/^[\w.+-]{1,80}$/.test(build)) throw new Error(`IRONBOX_UI_BUILD: letters, digits and . + - _ only (got ${JSON.stringify(build)})`);
writeFileSync(join(out, "build.json"), `${JSON.stringify({ build, version })}\n`);
const links = `<meta name="ironbox-build" content="${build}"><link rel="manifest" href="/manifest.webmanifest"><link rel="apple-touch-icon" href="/icon-192.png">`;
writeFileSync(indexHtml, readFileSync(indexHtml, "utf8").replace("</head>", `${links}</head>`));
for (const size of [192, 512]) writeFileSync(join(out, `icon-${size}.png`), iconPng(size));
const sw = await Bun.build({ entrypoints: [join(root, "ui/sw.ts")], outdir: join(out, ".sw"), minify: true, format: "iife", target: "browser" });
if (!sw.success) {
  for (const log of sw.logs) console.error(log);
  process.exit(1);
}
const precache = await injectManifest({
  swSrc: join(out, ".sw/sw.js"),
  swDest: join(out, "sw.js"),
  globDirectory: out,
  globPatterns: ["**/*.{html,js,css,woff,woff2,ttf,png,svg,webmanifest}"],
  globIgnores: ["sw.js", ".sw/**"],
});
rmSync(join(out, ".sw"), { recursive: true, force: true });
for (const w of precache.warnings) console.warn(w);
let js = 0;
let gz = 0;
let firstGz = 0;
const entryScripts = [...readFileSync(join(out, "index.html"), "utf8").matchAll(/src="\/?([^"]+\.js)"/g)].map((m) => m[1]);
const walk = (dir: string) => {
  for (const f of readdirSync(dir)) {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) walk(p);
    // The service worker is not part of the page's load.
    else if (p.endsWith(".js") && f !== "sw.js") {
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
  `ui built into ${relative(process.cwd(), out)} (service worker precaches ${precache.count} files, ${(precache.size / 1024).toFixed(0)} KB): first load ${(firstGz / 1024).toFixed(1)} KB gzipped JavaScript (bar 300 KB); ${(gz / 1024).toFixed(1)} KB with on-demand chunks (${(js / 1024).toFixed(0)} KB raw)`,
);
