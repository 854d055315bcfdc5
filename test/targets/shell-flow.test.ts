import { describe, expect, it } from "vitest";
import { andThen, loop, orElse, same } from "../../src/targets/shell/flow.js";
import { enterDirectory, mergeScopes, NO_VARS, setVar } from "../../src/targets/shell/scope.js";
import type { Arg, Scope } from "../../src/targets/shell/types.js";

const at = (cwd: string | null, vars: Record<string, string> = {}): Scope => ({
  cwd,
  vars: Object.entries(vars).reduce((v, [name, value]) => setVar(v, name, value), NO_VARS),
});
const value = (scope: Scope, name: string): Arg => scope.vars.get(name)?.value ?? null;

describe("where cd leads", () => {
  it.each<[string | null, Arg, string | null]>([
    ["", "sub", "sub"],
    ["", ".", ""],
    ["a/b", "../c", "a/c"],
    ["sub", "..", ""],
    ["a", "/abs/./x", "/abs/x"],
    [null, "rel", null],
    [null, "/abs", "/abs"],
    ["a", "-", null],
    ["a", "+1", null],
    ["a", null, null],
  ])("from %j, cd %j is %j", (cwd, dir, expected) => {
    expect(enterDirectory(cwd, dir)).toBe(expected);
  });
});

describe("merging the states two paths end in", () => {
  it.each<[string, Scope, Scope, string | null, Record<string, Arg>]>([
    ["agreeing states stay known", at("d", { F: "a" }), at("d", { F: "a" }), "d", { F: "a" }],
    ["a differing directory is unknown", at("d"), at("e"), null, {}],
    ["a differing value is unknown", at("", { F: "a" }), at("", { F: "b" }), "", { F: null }],
    ["a value on one path only is unknown", at("", { F: "a" }), at(""), "", { F: null }],
  ])("%s", (_name, a, b, cwd, vars) => {
    const merged = mergeScopes(a, b);
    expect(merged.cwd).toBe(cwd);
    for (const [name, v] of Object.entries(vars)) expect(value(merged, name)).toBe(v);
  });

  it("after x && y, the failure may come from either", () => {
    const out = andThen(same(at("")), () => same(at("d")));
    expect([out.ok.cwd, out.fail.cwd]).toEqual(["d", null]);
  });

  it("after x || y, the success may come from either", () => {
    const out = orElse(same(at("")), () => same(at("d")));
    expect([out.ok.cwd, out.fail.cwd]).toEqual([null, "d"]);
  });
});

describe("loops", () => {
  it("settles at once when a pass changes nothing", () => {
    let passes = 0;
    const end = loop(at("", { F: "a" }), (start) => {
      passes++;
      return [start];
    });
    expect([passes, value(end, "F")]).toEqual([1, "a"]);
  });

  it("makes a value that changes from pass to pass unknown, and walks again from there", () => {
    const starts: Arg[] = [];
    const end = loop(at("", { F: "a" }), (start) => {
      starts.push(value(start, "F"));
      const f = value(start, "F");
      return [{ ...start, vars: setVar(start.vars, "F", f === null ? null : `${f}.x`) }];
    });
    expect(starts).toEqual(["a", null]);
    expect(value(end, "F")).toBeNull();
  });
});
