import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { childTrustEnv } from "../../src/facts/gemini-trust.js";
import { tempDir } from "../helpers/repo.js";

function home(rules: Record<string, string> | null): string {
  const dir = tempDir();
  mkdirSync(join(dir, ".gemini"));
  if (rules) writeFileSync(join(dir, ".gemini", "trustedFolders.json"), JSON.stringify(rules));
  return dir;
}

describe("a Gemini sub-agent's folder trust", () => {
  it("is the project's: trusted project, trusted worktree", () => {
    const h = home({ "/w/app": "TRUST_FOLDER" });
    expect(childTrustEnv("/w/app", { HOME: h })).toEqual({ GEMINI_CLI_TRUST_WORKSPACE: "true" });
  });

  it("is not granted when the project is not trusted, or when the caller set the variable itself", () => {
    expect(childTrustEnv("/w/app", { HOME: home(null) })).toEqual({});
    expect(childTrustEnv("/w/app", { HOME: home({ "/w/app": "DO_NOT_TRUST" }) })).toEqual({});
    const h = home({ "/w/app": "TRUST_FOLDER" });
    expect(childTrustEnv("/w/app", { HOME: h, GEMINI_CLI_TRUST_WORKSPACE: "false" })).toEqual({});
  });
});
