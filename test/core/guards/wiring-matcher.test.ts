import { describe, expect, it } from "vitest";
import { PROJECT_WIRING } from "../../../src/config/project-wiring.js";
import {
  type WiringFacts,
  type WiringHit,
  wiringFiles,
  wiringMatcher,
} from "../../../src/core/guards/wiring.js";
import { isInside, normalizeAbsolute } from "../../../src/core/paths/lexical.js";

/** The matcher's meaning, as a plain scan over every wiring file. */
function scan(facts: WiringFacts, path: string): WiringHit | null {
  const files = wiringFiles(facts);
  const p = normalizeAbsolute(path);
  const exact = new Map(files.map((f) => [f.file, f])).get(p);
  if (exact) return exact;
  const within = files.find((f) => f.dir && isInside(f.file, p));
  if (within) return { file: p, what: within.what };
  if (facts.tops.some((top) => isInside(p, top))) return null;
  return files.find((f) => isInside(p, f.file)) ?? null;
}

const FACTS: WiringFacts[] = [
  { projectFiles: PROJECT_WIRING, tops: ["/w/repo"], commonDir: "/w/repo/.git", hooksDir: null },
  {
    projectFiles: PROJECT_WIRING,
    tops: ["/w/repo/sub", "/w/repo"],
    commonDir: "/w/main/.git",
    hooksDir: "/w/repo/.githooks",
  },
  { projectFiles: PROJECT_WIRING, tops: ["/"], commonDir: "/.git", hooksDir: null },
];

const PIECES = [
  "w",
  "repo",
  "sub",
  ".git",
  "hooks",
  "pre-commit",
  ".claude",
  "settings.json",
  ".codex",
  "hooks.json",
  ".cursor",
  ".githooks",
  "config",
  "x",
  "..",
  ".",
  ".tandem",
  "config.jsonc",
  "main",
];

function randomPath(seed: number): string {
  let s = seed;
  const next = () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s;
  };
  const n = 1 + (next() % 6);
  return `/${Array.from({ length: n }, () => PIECES[next() % PIECES.length]).join("/")}`;
}

describe("the wiring matcher's index", () => {
  it("answers as a scan over every wiring file would, for 3,000 paths in three checkouts", () => {
    for (const facts of FACTS) {
      const match = wiringMatcher(facts);
      const paths = [
        ...wiringFiles(facts).flatMap((f) => [
          f.file,
          `${f.file}/inner`,
          f.file.slice(0, f.file.lastIndexOf("/")) || "/",
        ]),
        ...Array.from({ length: 1000 }, (_, i) => randomPath(i + 1)),
        "/",
      ];
      for (const p of paths) expect(match(p), p).toEqual(scan(facts, p));
    }
  });
});
