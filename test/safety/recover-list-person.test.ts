/**
 * Issue 26 §5: a person's `tandem recover --list` (no agent above it, no --session) lists every
 * session's preserved versions, grouped by owner, instead of demanding --session.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { claudeBash, claudeWrite, denied, fakeAgent } from "../helpers/hooks.js";
import { hook } from "../helpers/in-process.js";
import { cli } from "../helpers/in-process-cli.js";
import { initRepo, tempDir } from "../helpers/repo.js";

const PERSON = { TANDEM_SESSION: undefined, CLAUDE_CODE_SESSION_ID: undefined, CODEX_THREAD_ID: undefined };

/** The Tandem name of the session whose native id is `native`. */
async function nameOf(repo: string, native: string): Promise<string> {
  const out = (await cli(["sessions", "--all", "--json"], { cwd: repo, env: PERSON })).stdout;
  const rows = JSON.parse(out) as { name: string; nativeId?: string; native_id?: string }[];
  const row = rows.find((r) => (r.nativeId ?? r.native_id) === native);
  if (!row) throw new Error(`no session ${native} in ${out}`);
  return row.name;
}

/** A holds f.txt with an edit; B's python write replaces it and writes b.txt of its own. */
async function twoOwners(): Promise<{ repo: string; a: string; b: string }> {
  const repo = initRepo(join(tempDir(), "repo"), { "f.txt": "committed\n" });
  const a = fakeAgent();
  const b = fakeAgent();
  const write = claudeWrite(repo, "A", "f.txt", "A's edit\n");
  expect(denied(await hook("claude-code", "pre-tool-use", write, { cwd: repo, env: a }))).toBeNull();
  writeFileSync(join(repo, "f.txt"), "A's edit\n");
  await hook(
    "claude-code",
    "post-tool-use",
    { ...write, hook_event_name: "PostToolUse" },
    { cwd: repo, env: a },
  );
  const command = `python3 -c "open('f.txt','w').write('B'); open('b.txt','w').write('b')"`;
  expect(
    denied(await hook("claude-code", "pre-tool-use", claudeBash(repo, "B", command), { cwd: repo, env: b })),
  ).toBeNull();
  execFileSync("bash", ["-c", command], { cwd: repo });
  await hook("claude-code", "post-tool-use", claudeBash(repo, "B", command, "PostToolUse"), {
    cwd: repo,
    env: b,
  });
  return { repo, a: await nameOf(repo, "A"), b: await nameOf(repo, "B") };
}

describe("recover --list from a person's shell", () => {
  it("lists every session's preserved files grouped by owner, without --session", async () => {
    const { repo, a, b } = await twoOwners();
    const list = await cli(["recover", "--list"], { cwd: repo, env: PERSON });
    expect(list.stderr).toBe("");
    expect(list.code).toBe(0);
    const aPart = list.stdout.slice(list.stdout.indexOf(`${a} (claude-code`));
    expect(aPart.split("\n\n")[0]).toMatch(/\n {2}f\.txt {2}\(2 versions\)/);
    const bPart = list.stdout.slice(list.stdout.indexOf(`${b} (claude-code`));
    expect(bPart.split("\n\n")[0]).toMatch(/\n {2}b\.txt {2}\(1 version\)/);
    expect(list.stdout).toMatch(/tandem recover PATH --session NAME/);
  });

  it("lists one path's versions under each owner that has them", async () => {
    const { repo, a } = await twoOwners();
    const list = await cli(["recover", "f.txt", "--list"], { cwd: repo, env: PERSON });
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(
      new RegExp(`^${a} \\(claude-code\\)\\n {2}version 1 .*\\n {2}version 2 .* what replaced your bytes\\n`),
    );
    expect(list.stdout).toMatch(/tandem recover f\.txt --session NAME/);
  });

  it("still lists only the calling agent's own files when an agent asks", async () => {
    const { repo, b } = await twoOwners();
    const list = await cli(["recover", "--list"], { cwd: repo, env: { ...PERSON, TANDEM_SESSION: b } });
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^b\.txt {2}\(1 version\)\n/);
    expect(list.stdout).not.toMatch(/claude-code/);
  });
});
