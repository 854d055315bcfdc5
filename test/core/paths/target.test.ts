import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveTarget as resolveWith } from "../../../src/core/paths/target.js";
import { physicalPath } from "../../../src/facts/physical.js";

/** The real file system's physical paths, as the hook supplies them. */
const resolveTarget = (raw: string, cwd: string, roots: readonly string[]) =>
  resolveWith(raw, cwd, roots, {}, physicalPath);

import { tempDir, writeFiles } from "../../helpers/repo.js";

/**
 *   ws/proj            coordination root
 *   ws/proj/sub        a nested root
 *   ws/proj/in   -> ws/proj/sub/dir   stays inside both roots' parent
 *   ws/proj/out  -> ws/ext            leaves every root
 *   ws/proj/sub/up -> ws/proj         leaves sub but stays in proj
 *   ws/alias     -> ws/proj           another spelling of the root itself
 *   ws/ext/back  -> ws/proj/src       from outside into the root
 */
function layout() {
  const ws = tempDir();
  const proj = join(ws, "proj");
  const sub = join(proj, "sub");
  const ext = join(ws, "ext");
  writeFiles(proj, { "src/a.ts": "a\n", "sub/dir/b.ts": "b\n" });
  mkdirSync(ext);
  symlinkSync(join(sub, "dir"), join(proj, "in"));
  symlinkSync(ext, join(proj, "out"));
  symlinkSync(proj, join(sub, "up"));
  symlinkSync(proj, join(ws, "alias"));
  symlinkSync(join(proj, "src"), join(ext, "back"));
  return { ws, proj, sub, ext, roots: [proj, sub] };
}

describe("resolveTarget", () => {
  it("resolves a plain relative target with no escape", () => {
    const d = layout();
    const res = resolveTarget("src/new.ts", d.proj, d.roots);
    expect(res).toEqual({
      ok: true,
      target: {
        raw: "src/new.ts",
        lexical: `${d.proj}/src/new.ts`,
        physical: `${d.proj}/src/new.ts`,
        escape: null,
      },
    });
  });

  it("follows a symlink that stays inside the root without calling it an escape", () => {
    const d = layout();
    const res = resolveTarget("in/new.ts", d.proj, d.roots);
    expect(res.ok && res.target.physical).toBe(`${d.sub}/dir/new.ts`);
    expect(res.ok && res.target.escape).toBeNull();
  });

  it("reports a symlink out of the root as an escape carrying both paths", () => {
    const d = layout();
    const res = resolveTarget("out/x.ts", d.proj, d.roots);
    expect(res.ok && res.target.escape).toEqual({
      root: d.proj,
      lexical: `${d.proj}/out/x.ts`,
      physical: `${d.ext}/x.ts`,
    });
  });

  it("reports an escape from a nested root even when the target stays in the outer one", () => {
    const d = layout();
    const res = resolveTarget("sub/up/src/a.ts", d.proj, d.roots);
    expect(res.ok && res.target.physical).toBe(`${d.proj}/src/a.ts`);
    expect(res.ok && res.target.escape?.root).toBe(d.sub);
  });

  it("catches an escape reached through an alias of the root", () => {
    const d = layout();
    const res = resolveTarget(`${d.ws}/alias/out/x.ts`, "/", d.roots);
    expect(res.ok && res.target.escape?.root).toBe(d.proj);
  });

  it("does not treat an alias of the root as an escape", () => {
    const d = layout();
    const res = resolveTarget(`${d.ws}/alias/src/a.ts`, "/", d.roots);
    expect(res.ok && res.target.physical).toBe(`${d.proj}/src/a.ts`);
    expect(res.ok && res.target.escape).toBeNull();
  });

  it("does not call a symlink from outside into the root an escape", () => {
    const d = layout();
    const res = resolveTarget("back/a.ts", d.ext, d.roots);
    expect(res.ok && res.target.physical).toBe(`${d.proj}/src/a.ts`);
    expect(res.ok && res.target.escape).toBeNull();
  });

  it("resolves .. after a symlink physically, so the lexical collapse cannot hide an escape", () => {
    const d = layout();
    const res = resolveTarget("out/../x.ts", d.proj, d.roots);
    expect(res.ok && res.target.lexical).toBe(`${d.proj}/x.ts`);
    expect(res.ok && res.target.physical).toBe(`${d.ws}/x.ts`);
    expect(res.ok && res.target.escape?.root).toBe(d.proj);
  });

  it("passes lexical errors through", () => {
    const res = resolveTarget("\\\\server\\share", "/", []);
    expect(res.ok).toBe(false);
  });
});
