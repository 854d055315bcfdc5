import { describe, expect, it } from "vitest";
import { selectKinds } from "../../src/core/kind-glob.js";

const KNOWN = ["claim.acquired", "claim.released", "subagent.created", "subagent.removed", "hook.error"];

describe("selectKinds", () => {
  it.each([
    ["claim.acquired", ["claim.acquired"]],
    ["claim.*", ["claim.acquired", "claim.released"]],
    ["sub*", ["subagent.created", "subagent.removed"]],
    ["*.removed", ["subagent.removed"]],
    ["*", KNOWN],
  ])("%s selects %j", (pattern, kinds) => {
    expect(selectKinds(pattern, KNOWN)).toEqual({ ok: true, kinds });
  });

  it.each(["claim.acquird", "zzz*", "claim"])("refuses %s, listing the kinds", (pattern) => {
    const r = selectKinds(pattern, KNOWN);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(/matches no event kind; use one of claim\.acquired, .*hook\.error/);
  });

  it("treats a dot as a dot, not any character", () => {
    expect(selectKinds("claimXacquired", KNOWN).ok).toBe(false);
  });
});
