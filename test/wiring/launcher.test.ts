import { describe, expect, it } from "vitest";
import {
  anchored,
  chooseLauncher,
  explicitLauncher,
  type InstallFacts,
  noPortableLauncher,
  PROJECT_LOCAL,
  unanchored,
} from "../../src/wiring/launcher.js";

const ROOT = "/home/ann/project";
const facts = (f: Partial<InstallFacts>): InstallFacts => ({ script: null, root: ROOT, onPath: null, ...f });

describe("the launcher init chooses without --command", () => {
  it.each<[string, Partial<InstallFacts>, string | null]>([
    [
      "the project's own devDependency",
      { script: `${ROOT}/node_modules/tandem/dist/tandem.cjs` },
      PROJECT_LOCAL,
    ],
    [
      "the devDependency even when another tandem is on PATH",
      { script: `${ROOT}/node_modules/tandem/dist/tandem.cjs`, onPath: "/usr/lib/tandem/dist/tandem.cjs" },
      PROJECT_LOCAL,
    ],
    [
      "a global install that PATH leads to",
      { script: "/usr/lib/tandem/dist/tandem.cjs", onPath: "/usr/lib/tandem/dist/tandem.cjs" },
      "tandem",
    ],
    [
      "nothing when PATH leads to another tandem",
      { script: "/src/tandem/dist/tandem.cjs", onPath: "/usr/lib/tandem/dist/tandem.cjs" },
      null,
    ],
    ["nothing when no tandem is on PATH", { script: "/src/tandem/dist/tandem.cjs" }, null],
    ["nothing when the running bundle is unknown", { onPath: "/usr/lib/tandem/dist/tandem.cjs" }, null],
    [
      "nothing for a sibling directory that merely starts like node_modules",
      { script: `${ROOT}/node_modules2/tandem/dist/tandem.cjs` },
      null,
    ],
  ])("picks %s", (_what, f, want) => {
    const choice = chooseLauncher(facts(f));
    expect(choice?.launcher ?? null).toBe(want);
    if (choice) expect(choice.warning).toBeNull();
  });
});

describe("the launcher init chooses when npx or `npm run` put a project's bin on PATH", () => {
  const other = "/home/ann/tools";
  const bundle = `${other}/node_modules/tandem/dist/tandem.cjs`;
  it.each<[string, Partial<InstallFacts>, string, boolean]>([
    [
      "another project's install, by its absolute path (init --root from there), warned as machine-bound",
      { script: bundle, onPath: bundle, onPathFile: `${other}/node_modules/.bin/tandem` },
      `${other}/node_modules/.bin/tandem`,
      true,
    ],
    [
      "a path with spaces, quoted",
      {
        script: "/home/ann/my tools/node_modules/tandem/dist/tandem.cjs",
        onPath: "/home/ann/my tools/node_modules/tandem/dist/tandem.cjs",
        onPathFile: "/home/ann/my tools/node_modules/.bin/tandem",
      },
      "'/home/ann/my tools/node_modules/.bin/tandem'",
      true,
    ],
    [
      "a package of the project's own (a monorepo), relative to the root and portable",
      {
        script: `${ROOT}/packages/app/node_modules/tandem/dist/tandem.cjs`,
        onPath: `${ROOT}/packages/app/node_modules/tandem/dist/tandem.cjs`,
        onPathFile: `${ROOT}/packages/app/node_modules/.bin/tandem`,
      },
      "packages/app/node_modules/.bin/tandem",
      false,
    ],
    [
      "a global install's bin, as before",
      {
        script: "/usr/lib/node_modules/tandem/dist/tandem.cjs",
        onPath: "/usr/lib/node_modules/tandem/dist/tandem.cjs",
        onPathFile: "/usr/bin/tandem",
      },
      "tandem",
      false,
    ],
  ])("records %s", (_what, f, want, warned) => {
    const choice = chooseLauncher(facts(f));
    expect(choice?.launcher).toBe(want);
    expect(choice?.warning !== null).toBe(warned);
  });
});

describe("a launcher given with --command", () => {
  it.each([
    ["tandem", false],
    ["npx tandem", false],
    [PROJECT_LOCAL, false],
    ["/usr/bin/node /src/tandem/dist/tandem.cjs", true],
    ["'/opt/my node/node' /x/tandem.cjs", true],
    ["~/bin/tandem", true],
  ])("%s is warned about as machine-bound: %s", (launcher, warned) => {
    expect(explicitLauncher(launcher).warning !== null).toBe(warned);
  });
});

describe("the refusal when nothing portable starts this tandem", () => {
  it("names both installs and the exact --command line, quoted as one shell word", () => {
    const text = noPortableLauncher("/usr/bin/node '/a b/tandem.cjs'");
    expect(text).toMatch(/npm install -g/);
    expect(text).toMatch(/npm install -D/);
    expect(text).toContain(`tandem init --command '/usr/bin/node '\\''/a b/tandem.cjs'\\'''`);
  });
});

describe("anchoring the devDependency form per hook target", () => {
  it.each([
    ["claude-code", `"$CLAUDE_PROJECT_DIR"/${PROJECT_LOCAL}`],
    ["codex", PROJECT_LOCAL],
    ["cursor", PROJECT_LOCAL],
    ["git", `${ROOT}/${PROJECT_LOCAL}`],
  ] as const)(
    "%s gets %s, and unanchoring Claude's form gives the recorded launcher back",
    (target, want) => {
      const written = anchored(PROJECT_LOCAL, target, ROOT);
      expect(written).toBe(want);
      if (target !== "git") expect(unanchored(written)).toBe(PROJECT_LOCAL);
    },
  );

  it("leaves PATH and absolute launchers alone", () => {
    for (const l of ["tandem", "npx tandem", "/usr/bin/node /x/tandem.cjs"]) {
      expect(anchored(l, "claude-code", ROOT)).toBe(l);
      expect(unanchored(l)).toBe(l);
    }
  });
});
