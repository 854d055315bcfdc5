import { describe, expect, it } from "vitest";
import { copilotTrust } from "../../../src/clients/copilot-cli/trust.js";

describe("Copilot CLI folder trust", () => {
  it.each([
    ["COPILOT_ALLOW_ALL=true trusts any folder", null, "true", "env"],
    ["another truthy spelling only approves tools", [], "1", "unlisted"],
    ["the repository listed", ["/w/repo"], undefined, "listed"],
    ["a parent folder listed", ["/w/"], undefined, "listed"],
    ["a sibling with a common prefix is not a parent", ["/w/rep"], undefined, "unlisted"],
    ["no config file", null, undefined, "unknown"],
  ] as const)("%s", (_what, trustedFolders, allowAllEnv, want) => {
    expect(copilotTrust({ root: "/w/repo", trustedFolders, allowAllEnv })).toBe(want);
  });
});
