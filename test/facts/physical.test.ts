import { chmodSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { physicalPath, physicalResolver } from "../../src/facts/physical.js";
import { tempDir, writeFiles } from "../helpers/repo.js";

/**
 * Layout shared by the cases:
 *   root/src/a.ts            a file
 *   root/in   -> root/src    symlink staying inside the root
 *   root/out  -> ext         symlink leaving the root
 *   root/rel  -> ../ext      relative symlink leaving the root
 *   root/dangling -> ext/new/file.txt   target does not exist yet
 *   root/chain -> in         symlink to a symlink
 *   root/loop1 <-> root/loop2   a cycle
 */
interface Layout {
  base: string;
  root: string;
  ext: string;
}

function layout(): Layout {
  const base = tempDir();
  const root = join(base, "root");
  const ext = join(base, "ext");
  writeFiles(root, { "src/a.ts": "a\n" });
  mkdirSync(ext);
  symlinkSync(join(root, "src"), join(root, "in"));
  symlinkSync(ext, join(root, "out"));
  symlinkSync("../ext", join(root, "rel"));
  symlinkSync(join(ext, "new", "file.txt"), join(root, "dangling"));
  symlinkSync("in", join(root, "chain"));
  symlinkSync("loop2", join(root, "loop1"));
  symlinkSync("loop1", join(root, "loop2"));
  return { base, root, ext };
}

describe("physicalPath", () => {
  const cases: Array<[string, string, (d: Layout) => string]> = [
    ["an existing file is its own physical path", "src/a.ts", (d) => `${d.root}/src/a.ts`],
    ["a missing file keeps its name under the real parent", "src/new.ts", (d) => `${d.root}/src/new.ts`],
    ["a deep missing remainder is appended as written", "src/x/y/z.ts", (d) => `${d.root}/src/x/y/z.ts`],
    ["a symlink into the root resolves inside it", "in/a.ts", (d) => `${d.root}/src/a.ts`],
    ["a missing file behind an inner symlink", "in/sub/new.ts", (d) => `${d.root}/src/sub/new.ts`],
    ["a symlink out of the root resolves outside", "out/x.ts", (d) => `${d.ext}/x.ts`],
    ["a relative symlink out of the root", "rel/deep/x.ts", (d) => `${d.ext}/deep/x.ts`],
    ["a dangling symlink lands on its target", "dangling", (d) => `${d.ext}/new/file.txt`],
    ["a chain of symlinks is followed to the end", "chain/a.ts", (d) => `${d.root}/src/a.ts`],
    ["`..` after a symlink climbs from the target", "out/../sibling.txt", (d) => `${d.base}/sibling.txt`],
    ["`..` through a missing directory", "src/missing/../b.ts", (d) => `${d.root}/src/b.ts`],
    ["a name under a regular file stays as written", "src/a.ts/x", (d) => `${d.root}/src/a.ts/x`],
  ];

  it.each(cases)("%s", (_name, rel, expected) => {
    const d = layout();
    expect(physicalPath(`${d.root}/${rel}`)).toEqual({ ok: true, path: expected(d) });
  });

  it.each(cases)("the batch resolver agrees: %s", (_name, rel, expected) => {
    const d = layout();
    const resolve = physicalResolver();
    // Twice: the second answer comes from the cached directory.
    expect(resolve(`${d.root}/${rel}`)).toEqual({ ok: true, path: expected(d) });
    expect(resolve(`${d.root}/${rel}`)).toEqual({ ok: true, path: expected(d) });
  });

  it("the batch resolver follows a leaf symlink and a symlinked parent shared by many paths", () => {
    const d = layout();
    const resolve = physicalResolver();
    const results = ["in/a.ts", "in/b.ts", "out/c.ts", "src/a.ts", "dangling", "chain"].map((rel) =>
      resolve(`${d.root}/${rel}`),
    );
    expect(results).toEqual([
      { ok: true, path: `${d.root}/src/a.ts` },
      { ok: true, path: `${d.root}/src/b.ts` },
      { ok: true, path: `${d.ext}/c.ts` },
      { ok: true, path: `${d.root}/src/a.ts` },
      { ok: true, path: `${d.ext}/new/file.txt` },
      { ok: true, path: `${d.root}/src` },
    ]);
  });

  it("the batch resolver refuses what physicalPath refuses", () => {
    const d = layout();
    const resolve = physicalResolver();
    expect(resolve(`${d.root}/loop1/x`).ok).toBe(false);
    expect(resolve(`${d.root}/loop1`).ok).toBe(false);
    expect(resolve("relative/x").ok).toBe(false);
  });

  it("keeps spaces, newlines and leading dashes in the missing remainder", () => {
    const d = layout();
    const name = "out/dir with space/-x\nnew line.txt";
    expect(physicalPath(`${d.root}/${name}`)).toEqual({
      ok: true,
      path: `${d.ext}/dir with space/-x\nnew line.txt`,
    });
  });

  it("refuses a symlink cycle instead of spinning", () => {
    const d = layout();
    const res = physicalPath(`${d.root}/loop1/x`);
    expect(res.ok).toBe(false);
    if (!res.ok) expect(res.reason).toMatch(/symbolic links|ELOOP/);
  });

  it("refuses a cycle reached after a missing directory", () => {
    const d = layout();
    const res = physicalPath(`${d.root}/missing/../loop1/x`);
    expect(res.ok).toBe(false);
    if (!res.ok) expect(res.reason).toMatch(/too many symbolic links/);
  });

  it("refuses a relative path", () => {
    expect(physicalPath("relative/x").ok).toBe(false);
  });

  it.skipIf(process.getuid?.() === 0)("fails closed when a directory cannot be searched", () => {
    const d = layout();
    const locked = join(d.root, "locked");
    mkdirSync(locked);
    chmodSync(locked, 0o000);
    try {
      const res = physicalPath(`${locked}/x/y`);
      expect(res.ok).toBe(false);
      if (!res.ok) expect(res.reason).toMatch(/EACCES/);
    } finally {
      chmodSync(locked, 0o755);
    }
  });
});
