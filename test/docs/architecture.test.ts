import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { missingPaths, pathClaims } from "./doc-paths.js";

const ROOT = join(import.meta.dirname, "..", "..");
const MAP = readFileSync(join(ROOT, "docs", "architecture.md"), "utf8");
const LAYERS = readFileSync(join(ROOT, "docs", "layers.txt"), "utf8");

/** Every file and folder (folders end in `/`) under the repository's source and doc folders. */
function repoPaths(): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    for (const e of readdirSync(join(ROOT, rel), { withFileTypes: true })) {
      const path = `${rel}/${e.name}`;
      if (e.isDirectory()) {
        out.push(`${path}/`);
        walk(path);
      } else out.push(path);
    }
  };
  for (const top of ["src", "test", "docs", "bench", "scripts"]) {
    out.push(`${top}/`);
    walk(top);
  }
  return out;
}

const SRC_ROOMS = new Set(readdirSync(join(ROOT, "src")).map((n) => n.replace(/\.ts$/, "")));
const ROOMS = LAYERS.split("\n")
  .map((l) => l.replace(/#.*/, "").trim())
  .filter(Boolean)
  .flatMap((l) => l.split(/\s+/));

describe("the paths a document names", () => {
  const rooms = new Set(["hooks", "core", "clients", "version"]);
  const paths = ["src/", "src/hooks/", "src/hooks/read.ts", "src/core/git/", "src/core/git/status.ts"];
  it.each([
    ["`hooks/read.ts`", ["src/hooks/read.ts"], []],
    ["`src/hooks/gone.ts`", ["src/hooks/gone.ts"], ["src/hooks/gone.ts"]],
    ["`core/git/` and `core/git`", ["src/core/git/", "src/core/git"], []],
    [
      "`core/git/*.ts`, `core/{git,paths}/status.ts`",
      ["src/core/git/*.ts", "src/core/{git,paths}/status.ts"],
      [],
    ],
    ["`clients/<name>/spec.ts`", ["src/clients/<name>/spec.ts"], ["src/clients/<name>/spec.ts"]],
    ["`status.ts`, `queries.ts`", ["src/**/status.ts", "src/**/queries.ts"], ["src/**/queries.ts"]],
    ["`.git/tandem/serve.tcp`, `dist/tandem`, `tandem init`, `f.txt`", [], []],
  ])("reads %s as claims %j, of which %j are missing", (text, claims, missing) => {
    expect(pathClaims(text, rooms)).toEqual(claims);
    expect(missingPaths(claims, paths)).toEqual(missing);
  });
});

describe("docs/architecture.md, the map (issue 27 §8: keep it true)", () => {
  it("names only paths that exist", () => {
    const claims = pathClaims(MAP, SRC_ROOMS);
    expect(claims.length).toBeGreaterThan(50);
    // A file moved or renamed: correct the map (or the path in it) to where the code is now.
    expect(missingPaths(claims, repoPaths())).toEqual([]);
  });

  it("draws every room that docs/layers.txt lists, and each of those rooms exists", () => {
    const picture = MAP.slice(MAP.indexOf("```"), MAP.indexOf("```", MAP.indexOf("```") + 3));
    const drawn = ROOMS.filter((r) => new RegExp(`(?<![\\w/-])${r}(?![\\w/-])`).test(picture));
    // A room added to docs/layers.txt goes into the map's picture at the same tier.
    expect(ROOMS.filter((r) => !drawn.includes(r))).toEqual([]);
    const roomPaths = ROOMS.map((r) => `src/${r}`);
    expect(missingPaths(roomPaths, repoPaths())).toEqual([]);
  });
});
