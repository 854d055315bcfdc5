import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import {
  type ConfigProblem,
  describeConfigProblem,
  formatConfigProblem,
  shortConfigProblem,
} from "../../src/config/problems.js";
import { tempDir, writeFiles } from "../helpers/repo.js";

/** The messages of a project config holding `text`, paths shown relative to the root. */
function messages(text: string, env: Record<string, string> = {}): string[] {
  const root = tempDir();
  writeFiles(root, { ".tandem/config.jsonc": text });
  const { problems } = loadConfig(root, { XDG_CONFIG_HOME: "/nonexistent", ...env });
  return problems.map((p) => formatConfigProblem(p, root));
}

describe("config problem messages", () => {
  it.each<[string, string, RegExp]>([
    [
      "an unknown key: its line:col, the key meant, what stays in effect, where to write it",
      '{\n  "freshnessSecs": 5\n}',
      /^\.tandem\/config\.jsonc:2:3: unknown key "freshnessSecs" \(did you mean "agents\.freshnessSeconds"\?\); Tandem ignores it, so agents\.freshnessSeconds stays 600\. Fix: write it as "freshnessSeconds" inside "agents"\.$/,
    ],
    [
      "a known key at the wrong level",
      '{ "stopRitual": "off" }',
      /^\.tandem\/config\.jsonc:1:3: unknown key "stopRitual" \(did you mean "agents\.stopRitual"\?\); Tandem ignores it, so agents\.stopRitual stays "enforce"\. Fix: write it as "stopRitual" inside "agents"\.$/,
    ],
    [
      "an unknown key with no near miss: the keys allowed there",
      '{ "agents": { "colour": "blue" } }',
      /:1:15: unknown key "agents\.colour"; Tandem ignores it\. Fix: remove it; the keys allowed there are "stopRitual", "requireGitFinalization", "finalizationRoots", "freshnessSeconds", "lineClaimMargin", "failClosed", "storeLockSeconds" and "remoteClaims"\.$/,
    ],
    [
      "a bad value: the key's line:col, the value, the allowed values, what is used",
      '{\n  "agents": {\n    "freshnessSeconds": "ten"\n  }\n}',
      /^\.tandem\/config\.jsonc:3:5: "agents\.freshnessSeconds" is "ten", but it must be a whole number of seconds above 0; Tandem uses 600 instead\. Fix: set it to a whole number of seconds above 0\.$/,
    ],
    [
      "a bad enum value with the value meant",
      '{ "agents": { "stopRitual": "observer" } }',
      /:1:15: "agents\.stopRitual" is "observer", but it must be one of "enforce", "observe" or "off" \(did you mean "observe"\?\); Tandem uses "enforce" instead\. Fix: set it to "observe"\.$/,
    ],
    [
      "a value the parser could not read",
      '{ "agents": { "freshnessSeconds": 6 00 } }',
      /:1:15: the value of "agents\.freshnessSeconds" cannot be read: a comma is expected \(CommaExpected\) at 1:37; Tandem uses 600 instead\. Fix: correct the JSON there/,
    ],
    [
      "broken JSON around sound keys",
      '{ "agents": { "failClosed": true } } }',
      /^\.tandem\/config\.jsonc:1:38: the JSON is broken: there is text after the end of the object \(EndOfFileExpected\); Tandem keeps every key it could still read and uses the defaults for the rest\. Fix: correct the JSON there \(comments and trailing commas are allowed\)\.$/,
    ],
    [
      "a file that is not an object",
      "[]",
      /:1:1: the file is a list, but it must be an object with the keys "\$schema", "init", "guard", "agents", "remote", "land", "store", "retention", "server" and "subagents"; Tandem uses the defaults\. Fix: set it to an object/,
    ],
  ])("%s", (_name, text, expected) => {
    expect(messages(text)).toEqual([expect.stringMatching(expected)]);
  });

  it("tells a bad environment variable apart from the files", () => {
    expect(messages("{}", { TANDEM_FAIL_CLOSED: "yes" })).toEqual([
      'environment: TANDEM_FAIL_CLOSED is "yes", but it must be 1 or 0; Tandem uses false instead. Fix: set TANDEM_FAIL_CLOSED to 1 or 0, or unset it.',
    ]);
  });

  it("splits a message into where, what and the fix, and shortens it for the status box", () => {
    const p: ConfigProblem = {
      source: "/home/u/.config/tandem/config.jsonc",
      kind: "unknown-key",
      key: "agents.stopRitaul",
      line: 4,
      column: 7,
      problem: "is not a key Tandem knows",
      allowed: '"stopRitual"',
      didYouMean: "agents.stopRitual",
      using: '"enforce"',
    };
    // Outside the root the path stays whole.
    expect(describeConfigProblem(p, "/work/repo")).toEqual({
      where: "/home/u/.config/tandem/config.jsonc:4:7",
      what: 'unknown key "agents.stopRitaul" (did you mean "agents.stopRitual"?); Tandem ignores it, so agents.stopRitual stays "enforce"',
      fix: 'write it as "stopRitual" inside "agents"',
    });
    expect(shortConfigProblem(p)).toBe(
      '/home/u/.config/tandem/config.jsonc:4:7: unknown key "agents.stopRitaul"',
    );
    expect(formatConfigProblem({ ...p, kind: "unreadable", line: null, problem: "EACCES" })).toBe(
      "/home/u/.config/tandem/config.jsonc: the file cannot be read (EACCES); Tandem uses the defaults for everything in it. Fix: make it readable (check its permissions) or remove it.",
    );
  });
});
