import { describe, expect, it } from "vitest";
import { formatGc } from "../../src/cli/format/gc.js";
import { PLAIN, type Printer } from "../../src/core/printed.js";
import type { GcReport } from "../../src/store/upkeep/gc.js";

const empty: GcReport = {
  dryRun: false,
  cutoff: Date.UTC(2026, 0, 1),
  sessions: 0,
  events: 0,
  preserved: 0,
  policyVersions: 0,
  savedBytes: 0,
  sessionsOver: [],
  subagents: 0,
  blobs: 0,
  blobBytes: 0,
  dbBytesBefore: 4096,
  dbBytesAfter: 4096,
  freeBytes: 0,
  vacuum: "incremental",
};

describe("the gc report", () => {
  it.each([
    [true, "(there would be nothing to free)"],
    [false, "(there was nothing to free)"],
  ])("says in plain English when there is nothing to free (dry run: %s)", (dryRun, line) => {
    expect(formatGc({ ...empty, dryRun }, PLAIN)).toContain(line);
  });

  it("says nothing about an empty run when something was freed", () => {
    expect(formatGc({ ...empty, sessions: 1, events: 5 }, PLAIN)).not.toMatch(/nothing to free/);
  });

  it.each([
    ["a devDependency's person", { reader: "person", launcher: "npx tandem" }, "`npx tandem gc --vacuum`"],
    [
      "an agent",
      { reader: "agent", launcher: ".git/tandem/bin/tandem" },
      "`.git/tandem/bin/tandem gc --vacuum`",
    ],
  ] as [string, Printer, string][])("spells the vacuum advice for %s", (_who, p, command) => {
    expect(formatGc({ ...empty, freeBytes: 1 << 20, vacuum: "none" }, p)).toContain(command);
  });
});
