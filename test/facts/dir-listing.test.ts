import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DirListings } from "../../src/facts/dir-listing.js";
import { physicalResolver } from "../../src/facts/physical.js";
import { tempDir } from "../helpers/repo.js";

/** A directory with files f0…f19, a subdirectory, and a symlink leaving it. */
function crowded(): { dir: string; outside: string } {
  const base = tempDir();
  const dir = join(base, "dir");
  const outside = join(base, "outside");
  mkdirSync(dir);
  mkdirSync(outside);
  for (let i = 0; i < 20; i++) writeFileSync(join(dir, `f${i}`), "x");
  mkdirSync(join(dir, "sub"));
  symlinkSync(outside, join(dir, "link"));
  return { dir, outside };
}

describe("DirListings", () => {
  it("answers nothing for the first few questions, then reads the directory once and knows every type", () => {
    const { dir } = crowded();
    const listings = new DirListings();
    const early = Array.from({ length: 7 }, (_, i) => listings.typeOf(dir, `f${i}`));
    expect(early).toEqual(Array(7).fill(undefined));
    expect(listings.typeOf(dir, "f7")).toBe("file");
    expect(listings.typeOf(dir, "sub")).toBe("dir");
    expect(listings.typeOf(dir, "link")).toBe("symlink");
    // Not in the listing: the caller asks the filesystem itself.
    expect(listings.typeOf(dir, "never-written")).toBeUndefined();
  });

  it("never claims to know a directory it cannot read", () => {
    const listings = new DirListings();
    const answers = Array.from({ length: 12 }, () => listings.typeOf("/nonexistent/dir", "x"));
    expect(answers).toEqual(Array(12).fill(undefined));
  });
});

describe("physicalResolver over a listed directory", () => {
  it("still follows a symlinked leaf and keeps a missing leaf as written once the directory is listed", () => {
    const { dir, outside } = crowded();
    const resolve = physicalResolver(new DirListings());
    for (let i = 0; i < 20; i++) expect(resolve(`${dir}/f${i}`)).toEqual({ ok: true, path: `${dir}/f${i}` });
    expect(resolve(`${dir}/link`)).toEqual({ ok: true, path: outside });
    expect(resolve(`${dir}/new file`)).toEqual({ ok: true, path: `${dir}/new file` });
    expect(resolve(`${dir}/sub`)).toEqual({ ok: true, path: `${dir}/sub` });
  });
});
