import { describe, expect, it } from "vitest";
import {
  claimTree,
  holderHue,
  initialCollapsed,
  type TreeClaim,
  treeRows,
} from "../../src/core/ui/claim-tree.js";

const c = (path: string, holder = "agent-a", state: TreeClaim["state"] = "live"): TreeClaim => ({
  path,
  holder,
  state,
});

const brief = (rows: ReturnType<typeof treeRows>) =>
  rows.map((r) =>
    r.kind === "dir"
      ? `${"  ".repeat(r.depth)}${r.name}/ ${r.count}`
      : `${"  ".repeat(r.depth)}${r.name} @${r.holder}`,
  );

describe("claimTree and treeRows", () => {
  it("nests paths into directories, directories first and by name, counting claims below", () => {
    const tree = claimTree([c("src/b.ts", "bob"), c("README.md"), c("src/lib/a.ts"), c("src/a.ts")]);
    expect(brief(treeRows(tree, new Set()))).toEqual([
      "src/ 3",
      "  lib/ 1",
      "    a.ts @agent-a",
      "  a.ts @agent-a",
      "  b.ts @bob",
      "README.md @agent-a",
    ]);
  });

  it("leaves out what a collapsed directory holds but keeps its count and holders", () => {
    const tree = claimTree([c("src/lib/a.ts", "bob"), c("src/b.ts", "alice")]);
    const rows = treeRows(tree, new Set(["src"]));
    expect(rows).toEqual([
      { kind: "dir", depth: 0, name: "src", path: "src", count: 2, holders: ["alice", "bob"], open: false },
    ]);
  });

  it("keeps claims of other worktrees under their absolute paths", () => {
    const rows = treeRows(claimTree([c("/wt/other/f.ts")]), new Set());
    expect(brief(rows)).toEqual(["wt/ 1", "  other/ 1", "    f.ts @agent-a"]);
  });

  it("opens small trees whole and closes the top directories of large ones", () => {
    const few = claimTree([c("a/x"), c("b/y")]);
    expect(initialCollapsed(few)).toEqual(new Set());
    const many = claimTree(Array.from({ length: 300 }, (_, i) => c(`d${i % 3}/f${i}`)));
    expect(initialCollapsed(many)).toEqual(new Set(["d0", "d1", "d2"]));
  });

  it("gives each holder one hue, the same every time", () => {
    expect(holderHue("agent-a")).toBe(holderHue("agent-a"));
    expect(holderHue("agent-a")).not.toBe(holderHue("agent-b"));
    expect(holderHue("x")).toBeGreaterThanOrEqual(0);
    expect(holderHue("x")).toBeLessThan(360);
  });
});
