import { describe, expect, it } from "vitest";
import { healPlan, staleFiles } from "../../src/wiring/heal-plan.js";
import type { InitRecord } from "../../src/wiring/init-record.js";
import { planInit } from "../../src/wiring/plan.js";
import type { FileState, Snapshot } from "../../src/wiring/snapshot.js";

const L = "/usr/bin/node /opt/tandem/dist/tandem.cjs";
const RECORD: InitRecord = { command: L, clients: ["cursor"], gitHooks: true };
const CURSOR = "/r/.cursor/hooks.json";
const CONFIG = "/r/.tandem/config.jsonc";
const PRE_COMMIT = "/r/.git/hooks/pre-commit";

const state = (path: string, text: string | null, executable = text !== null): FileState => ({
  path,
  text,
  executable,
});

function snap(texts: Record<string, string | null>, executable = true): Snapshot {
  const at = (p: string) => state(p, p in texts ? texts[p]! : null, executable);
  const hook = (n: string) => at(`/r/.git/hooks/${n}`);
  return {
    root: "/r",
    settings: { cursor: at(CURSOR) },
    config: at(CONFIG),
    gitHooks: {
      dir: "/r/.git/hooks",
      files: {
        "pre-commit": hook("pre-commit"),
        "prepare-commit-msg": hook("prepare-commit-msg"),
        "post-commit": hook("post-commit"),
        "post-checkout": hook("post-checkout"),
      },
    },
  };
}

/** What `tandem init` leaves: the texts of every file of the snapshot, wired. */
const WIRED: Record<string, string | null> = Object.fromEntries(
  planInit(snap({}), L, RECORD).map((p) => [p.path, p.after]),
);
const wired = (changes: Record<string, string | null>) => ({ ...WIRED, ...changes });
const cursorDoc = () => JSON.parse(WIRED[CURSOR]!) as { version: number; hooks: Record<string, unknown[]> };
const lastGood = (p: string) => WIRED[p] ?? null;
const noneKnown = () => null;

const plan = (texts: Record<string, string | null>, known = lastGood, executable = true) =>
  healPlan(snap(texts, executable), L, RECORD, known).map((s) => ({
    path: s.path,
    restores: s.text === null ? null : s.text === WIRED[s.path] ? "whole" : "entries into the file found",
    changes: s.changes,
    displaced: s.displaced,
    unhealable: s.unhealable ?? null,
  }));

describe("what healing writes", () => {
  it.each<[string, Record<string, string | null>, unknown[]]>([
    ["nothing, for the files as init left them", wired({}), []],
    [
      "nothing, for a person's key beside Tandem's entries",
      wired({ [CURSOR]: JSON.stringify({ ...cursorDoc(), theirs: true }) }),
      [],
    ],
    [
      "Tandem's hooks into an emptied file",
      wired({ [CURSOR]: "{}" }),
      [{ path: CURSOR, restores: "entries into the file found", displaced: null, unhealable: null }],
    ],
    [
      "the last content of a removed file",
      wired({ [CONFIG]: null }),
      [{ path: CONFIG, restores: "whole", displaced: null, unhealable: null }],
    ],
    [
      "the last content of a file init cannot read, keeping what was there",
      wired({ [CURSOR]: "{ nope" }),
      [{ path: CURSOR, restores: "whole", displaced: "{ nope", unhealable: null }],
    ],
    [
      "Tandem's block back into a git hook whose block was cut out",
      wired({ [PRE_COMMIT]: "#!/bin/sh\necho mine\n" }),
      [{ path: PRE_COMMIT, restores: "entries into the file found", displaced: null, unhealable: null }],
    ],
  ])("writes %s", (_name, texts, want) => {
    expect(plan(texts)).toMatchObject(want);
  });

  it("keeps the person's key while putting back the hook they did not remove", () => {
    const doc = cursorDoc();
    delete doc.hooks.preToolUse;
    const [step, ...rest] = healPlan(
      snap(wired({ [CURSOR]: JSON.stringify({ ...doc, theirs: 1 }) })),
      L,
      RECORD,
      lastGood,
    );
    expect(rest).toEqual([]);
    expect(step!.changes).toEqual(["preToolUse hook missing"]);
    expect(JSON.parse(step!.text!)).toMatchObject({
      theirs: 1,
      hooks: { preToolUse: cursorDoc().hooks.preToolUse },
    });
  });

  it("leaves a file init cannot read when no earlier content is known, and says why", () => {
    expect(plan(wired({ [CURSOR]: "{ nope" }), noneKnown)).toMatchObject([
      { path: CURSOR, restores: null, unhealable: expect.stringMatching(/\.cursor\/hooks\.json/) },
    ]);
  });

  it("makes a git hook executable again", () => {
    const steps = plan(wired({}), lastGood, false).filter((s) => s.path === PRE_COMMIT);
    expect(steps).toMatchObject([{ path: PRE_COMMIT, changes: ["not executable"] }]);
  });
});

describe("which recorded files are looked at", () => {
  it("only those whose stamp moved", () => {
    const rows = [
      { path: "/a", stamp: "1" },
      { path: "/b", stamp: "2" },
      { path: "/c", stamp: "-" },
    ];
    const now: Record<string, string> = { "/a": "1", "/b": "3", "/c": "-" };
    expect(staleFiles(rows, (p) => now[p]!).map((r) => r.path)).toEqual(["/b"]);
  });
});
