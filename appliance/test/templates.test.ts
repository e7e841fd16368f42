// Templates shared by test files and processes (issue 33): `bun test --parallel` gives each file
// a fresh module scope, so a template kept in memory was made again in every file.
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { forgetTemplates, sharedTemplate, sourcesHash } from "./templates";

const scratch = mkdtempSync(join(tmpdir(), "ironbox-templates-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

test("two test files run by bun test --parallel copy one template: the admin's argon2 hash is the same in both", async () => {
  const dir = join(scratch, "files");
  mkdirSync(dir);
  const body = `import { test } from "bun:test";
import { testBox } from ${JSON.stringify(join(import.meta.dir, "harness"))};
test("box", async () => {
  const box = await testBox();
  const rows = (await box.database.client.execute("SELECT password_hash FROM agents")).rows;
  console.log("HASH", rows[0]?.[0]);
  box.close();
});
`;
  for (const f of ["a", "b"]) writeFileSync(join(dir, `${f}.test.ts`), body);
  const run = Bun.spawnSync([process.execPath, "test", "--timeout", "30000", "--parallel=2", join(dir, "a.test.ts"), join(dir, "b.test.ts")], {
    cwd: join(import.meta.dir, "..", ".."),
  });
  const out = `${run.stdout}${run.stderr}`;
  const hashes = [...out.matchAll(/^HASH (\S+)$/gm)].map((m) => m[1]);
  expect(hashes, out).toHaveLength(2);
  // argon2 salts each hash: two files that each made their own template would differ.
  expect(hashes[0]).toBe(hashes[1]!);
});

test("a template is built once per key, found again by a fresh module scope, and built anew for another key", async () => {
  const root = join(scratch, "store");
  let builds = 0;
  const build = async (dir: string) => {
    builds++;
    writeFileSync(join(dir, "data"), String(builds));
  };
  const first = await sharedTemplate("k1", build, root);
  forgetTemplates();
  expect(await sharedTemplate("k1", build, root)).toBe(first);
  expect(builds).toBe(1);
  expect(await sharedTemplate("k2", build, root)).not.toBe(first);
  expect(builds).toBe(2);
});

test("a build that fails leaves nothing behind and is tried again", async () => {
  const root = join(scratch, "failing");
  await expect(
    sharedTemplate(
      "k",
      async () => {
        throw new Error("disk full");
      },
      root,
    ),
  ).rejects.toThrow("disk full");
  expect(readdirSync(root)).toEqual([]);
  const dir = await sharedTemplate("k", async (d) => writeFileSync(join(d, "data"), "ok"), root);
  expect(existsSync(join(dir, "data"))).toBe(true);
});

test("the sources' fingerprint changes with a migration or a module, not with a test", () => {
  const root = join(scratch, "tree");
  for (const d of ["db/migrations", "appliance/modules/x", "appliance/test"]) mkdirSync(join(root, d), { recursive: true });
  writeFileSync(join(root, "db/migrations/0001.sql"), "CREATE TABLE a (id integer);");
  writeFileSync(join(root, "appliance/modules/x/service.ts"), "export const a = 1;");
  const before = sourcesHash(root);
  writeFileSync(join(root, "appliance/modules/x/x.test.ts"), "// a test");
  writeFileSync(join(root, "appliance/test/harness.ts"), "// the harness");
  expect(sourcesHash(root)).toBe(before);
  writeFileSync(join(root, "db/migrations/0001.sql"), "CREATE TABLE a (id integer, b text);");
  const migrated = sourcesHash(root);
  expect(migrated).not.toBe(before);
  writeFileSync(join(root, "appliance/modules/x/service.ts"), "export const a = 2;");
  expect(sourcesHash(root)).not.toBe(migrated);
});
