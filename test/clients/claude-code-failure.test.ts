/**
 * Claude Code's PostToolUseFailure (decision 0076), from the payload the real 2.1.332 sent for a
 * Bash command exiting 3 (test/fixtures/claude-code/fail-PostToolUseFailure.json): it parses as a
 * post-tool call whose output is the `error`, and an answer goes back under its own event name.
 */
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { claudeCode } from "../../src/clients/claude-code/spec.js";
import { ALLOW } from "../../src/clients/types.js";

const payload = JSON.parse(
  readFileSync(new URL("../fixtures/claude-code/fail-PostToolUseFailure.json", import.meta.url), "utf8"),
);
const wired = claudeCode.events.find((e) => e.native === "PostToolUseFailure")!;

it("is wired as a post-tool event on the same tools as PostToolUse", () => {
  const post = claudeCode.events.find((e) => e.native === "PostToolUse")!;
  expect(wired).toMatchObject({ cli: "post-tool-use-failure", kind: "post-tool", matcher: post.matcher });
});

it("parses the failure as a finished Bash call whose output is the error", () => {
  const parsed = claudeCode.parse("post-tool-use-failure", payload);
  if (!parsed.ok) throw new Error(`did not parse: ${JSON.stringify(parsed)}`);
  expect(parsed.input).toMatchObject({
    kind: "post-tool",
    event: "PostToolUseFailure",
    sessionId: payload.session_id,
  });
  expect(parsed.input.tool).toMatchObject({
    name: "Bash",
    input: { command: payload.tool_input.command },
    useId: "toolu_fake_1",
    output: "Exit code 3\nto-stdout\nto-stderr",
  });
});

it.each([
  [
    "context for the agent",
    { ...ALLOW, context: "told" },
    { hookSpecificOutput: { hookEventName: "PostToolUseFailure", additionalContext: "told" } },
  ],
  ["nothing to say", ALLOW, null],
])("answers %s under PostToolUseFailure", (_what, verdict, want) => {
  const out = claudeCode.render("post-tool", wired, verdict);
  expect(out.exitCode).toBe(0);
  expect(out.stdout === "" ? null : JSON.parse(out.stdout)).toEqual(want);
});
