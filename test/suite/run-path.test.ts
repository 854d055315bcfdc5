import { spawnSync } from "node:child_process";
import { basename, dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { type ShimFacts, shimmedCommands } from "../helpers/run-path.js";

describe("the run's PATH past version managers' shims", () => {
  const cases: [string, ShimFacts, string[]][] = [
    ["pyenv's shim is linked past", { found: { python3: "/home/dev/.pyenv/shims" } }, ["python3"]],
    ["asdf's and mise's too", { found: { python3: "/home/dev/.local/share/mise/shims" } }, ["python3"]],
    ["a system interpreter stays as found", { found: { python3: "/usr/bin" } }, []],
    ["a virtualenv's bin stays as found", { found: { python3: "/home/dev/venv/bin" } }, []],
    ["no interpreter: nothing to link", { found: { python3: null } }, []],
  ];
  it.each(cases)("%s", (_name, facts, want) => {
    expect(shimmedCommands(facts)).toEqual(want);
  });

  it("this run's shells find python3 outside any shims directory", () => {
    const r = spawnSync("bash", ["-c", "command -v python3"], { encoding: "utf8" });
    // No python3 at all passes here: the tests that need one say so themselves.
    const dir = r.status === 0 ? basename(dirname(r.stdout.trim())) : "(none)";
    expect(dir).not.toBe("shims");
  });
});
