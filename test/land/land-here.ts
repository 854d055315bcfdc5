import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import type { LandResult } from "../../src/core/land/result.js";
import { claudeWrite, denied } from "../helpers/hooks.js";
import { hook } from "../helpers/in-process.js";
import { cli } from "../helpers/in-process-cli.js";

/**
 * land-world.ts's `agentEdits` and `landJson` answered in this process (test/helpers/in-process.ts,
 * in-process-cli.ts), for tests whose subject is the landing's answer. Landers that must overlap as
 * processes keep `landAsync`. A module of its own, so files that only race the binary do not load
 * the in-process CLI.
 */

/** An agent's uncommitted edit made through the hooks: the claim, the write, the post-tool record. */
export async function agentEditsHere(
  repo: string,
  session: string,
  env: Record<string, string>,
  file: string,
  bytes: string,
): Promise<void> {
  const payload = claudeWrite(repo, session, file, bytes);
  expect(denied(await hook("claude-code", "pre-tool-use", payload, { cwd: repo, env }))).toBeNull();
  writeFileSync(join(repo, file), bytes);
  await hook(
    "claude-code",
    "post-tool-use",
    { ...payload, hook_event_name: "PostToolUse" },
    { cwd: repo, env },
  );
}

/** `tandem land --json`; its stdout must be one JSON result. */
export async function landJsonHere(
  repo: string,
  env: Record<string, string> = {},
): Promise<{ code: number; result: LandResult; stderr: string }> {
  const r = await cli(["land", "--json"], { cwd: repo, env });
  if (!r.stdout.trim()) throw new Error(`tandem land printed nothing: ${r.stderr}`);
  return { code: r.code, result: JSON.parse(r.stdout) as LandResult, stderr: r.stderr };
}
