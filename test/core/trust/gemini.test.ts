import { describe, expect, it } from "vitest";
import { type GeminiTrustInput, geminiTrust } from "../../../src/core/trust/gemini.js";

const base: GeminiTrustInput = {
  project: "/w/team/app",
  trustWorkspaceEnv: undefined,
  restrictedModeEnv: undefined,
  folderTrustEnabled: undefined,
  rules: null,
};

describe("Gemini CLI's trust of a project", () => {
  it.each([
    ["no trusted folders file", {}, { state: "unlisted" }],
    [
      "a rule for the project",
      { rules: { "/w/team/app": "TRUST_FOLDER" } },
      { state: "trusted", via: "rule" },
    ],
    ["a rule for a folder above", { rules: { "/w": "TRUST_FOLDER" } }, { state: "trusted", rule: "/w" }],
    ["TRUST_PARENT on a sibling", { rules: { "/w/team/other": "TRUST_PARENT" } }, { state: "trusted" }],
    [
      "a rule for a folder beside it only",
      { rules: { "/w/team/ap": "TRUST_FOLDER" } },
      { state: "unlisted" },
    ],
    [
      "the longest rule winning over a broader trust",
      { rules: { "/w": "TRUST_FOLDER", "/w/team": "DO_NOT_TRUST" } },
      { state: "untrusted", via: "rule", rule: "/w/team" },
    ],
    ["folder trust turned off", { folderTrustEnabled: false }, { state: "trusted", via: "trust-off" }],
    ["GEMINI_CLI_TRUST_WORKSPACE=true", { trustWorkspaceEnv: "true" }, { state: "trusted", via: "env" }],
    [
      "restricted mode over a trusting rule",
      { restrictedModeEnv: "true", rules: { "/w": "TRUST_FOLDER" } },
      { state: "untrusted", via: "env" },
    ],
    ["an unknown level", { rules: { "/w": "YES" } }, { state: "invalid" }],
  ] as const)("%s", (_name, over, want) => {
    expect(geminiTrust({ ...base, ...over })).toMatchObject(want);
  });
});
