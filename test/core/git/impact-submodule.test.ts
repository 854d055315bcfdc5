/** Issue 37.6: `git submodule` commands planned as the plain git calls they make in each submodule. */
import { describe, expect, it } from "vitest";
import { planSubmodule, type SubmodulePlan } from "../../../src/core/git/impact-submodule.js";

const CHECKOUT = ["checkout", "-f"];
const CLEAN = ["clean", "-ffdx"];
const each = (pathspecs: string[], recursive: boolean, calls: string[][]): SubmodulePlan => ({
  kind: "each",
  pathspecs,
  recursive,
  calls,
});
const NONE: SubmodulePlan = { kind: "none" };
const FOREACH_UNKNOWN: SubmodulePlan = {
  kind: "unknown",
  reason: "git submodule foreach runs a shell command Tandem does not read",
};

const CASES: [string, SubmodulePlan][] = [
  ["update", NONE],
  ["update --init --recursive", NONE],
  ["update --force", each([], false, [CHECKOUT])],
  ["update -f sub", each(["sub"], false, [CHECKOUT])],
  ["update --init -fN --recursive", each([], true, [CHECKOUT])],
  ["update --force --reference ../r --depth 1 -- a b", each(["a", "b"], false, [CHECKOUT])],
  ["--quiet update --force", each([], false, [CHECKOUT])],
  ["deinit sub", NONE],
  ["deinit -f sub", each(["sub"], false, [CHECKOUT, CLEAN])],
  ["deinit --force --all", each([], false, [CHECKOUT, CLEAN])],
  ["foreach git status", each([], false, [["status"]])],
  ["foreach --recursive git checkout -- .", each([], true, [["checkout", "--", "."]])],
  ["foreach", NONE],
  ["foreach make clean", FOREACH_UNKNOWN],
  ["foreach git checkout . && rm -rf x", FOREACH_UNKNOWN],
  ["foreach git checkout $sm_path", FOREACH_UNKNOWN],
  ["status", NONE],
  ["sync --recursive", NONE],
  ["add ../lib lib", NONE],
  ["absorbgitdirs", NONE],
];

describe("planSubmodule", () => {
  for (const [words, want] of CASES) {
    it(`git submodule ${words}`, () => {
      expect(planSubmodule(words.split(" ").filter(Boolean))).toEqual(want);
    });
  }

  it("joins foreach's words as git does before the shell reads them", () => {
    expect(planSubmodule(["foreach", "git checkout -- ."])).toEqual(
      each([], false, [["checkout", "--", "."]]),
    );
  });
});
