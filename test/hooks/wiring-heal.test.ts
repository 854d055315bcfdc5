import { execFileSync } from "node:child_process";
import { accessSync, constants, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readBlob } from "../../src/store/blobs/files.js";
import { openDb } from "../../src/store/db.js";
import { raw } from "../../src/store/handle.js";
import { PIN } from "../helpers/cli.js";
import { claudeBash, fakeAgent, ledger } from "../helpers/hooks.js";
import { hook } from "../helpers/in-process.js";
import { cli } from "../helpers/in-process-cli.js";
import { initRepo, tempDir } from "../helpers/repo.js";

/**
 * Issue 25 item 6 without a server: writes that unhook Tandem without naming a wiring file to the
 * shell reader (an interpreter, a link) are undone by the next hook of any session, and recorded.
 */

const SETTINGS = ".claude/settings.json";

interface World {
  repo: string;
  a: Record<string, string>;
  b: Record<string, string>;
}

/** A repository wired by the real `tandem init`, with two live sessions A and B in it. */
async function world(): Promise<World> {
  const repo = initRepo(join(tempDir(), "repo"));
  const init = await cli(["init", ...PIN, "--clients", "claude-code"], { cwd: repo });
  expect(init.code, init.stderr).toBe(0);
  const w = { repo, a: fakeAgent(), b: fakeAgent() };
  await prompt(w, "A");
  await prompt(w, "B");
  return w;
}

async function prompt(w: World, who: "A" | "B"): Promise<void> {
  const payload = { session_id: who, cwd: w.repo, hook_event_name: "UserPromptSubmit", prompt: "go" };
  const r = await hook("claude-code", "user-prompt-submit", payload, {
    cwd: w.repo,
    env: who === "A" ? w.a : w.b,
  });
  expect(r.code, r.stderr).toBe(0);
}

/**
 * B's shell command: its real pre-tool hook, then the command inside B's agent process whatever
 * that hook said (a background job it left would run it just the same), and no post-tool hook,
 * so the next hook to run is someone else's.
 */
async function bRuns(w: World, command: string): Promise<void> {
  await hook("claude-code", "pre-tool-use", claudeBash(w.repo, "B", command), { cwd: w.repo, env: w.b });
  execFileSync("bash", ["-c", command], { cwd: w.repo, env: { ...process.env, ...w.b }, stdio: "ignore" });
}

const settings = (w: World) => JSON.parse(readFileSync(join(w.repo, SETTINGS), "utf8"));
const tandemHooked = (w: World): boolean =>
  JSON.stringify(settings(w).hooks?.PreToolUse ?? []).includes("hook claude-code pre-tool-use");

interface Restored {
  file: string;
  changes: string[];
  foundBy: string | null;
  via: string;
  lastCommandBy: string | null;
  displaced: string | null;
}

const restored = (w: World) =>
  ledger(w.repo)
    .events.filter((e) => e.kind === "wiring.restored")
    .map((e) => e.data as Restored);

function sessionId(w: World, native: string): string {
  const db = openDb(join(w.repo, ".git", "tandem"));
  try {
    return (raw(db).prepare("SELECT id FROM sessions WHERE native_id = ?").get(native) as { id: string }).id;
  } finally {
    db.close();
  }
}

const python = (code: string) => `python3 -c ${JSON.stringify(code)}`;

describe("the wiring heals at the next hook", () => {
  it.each([
    ["a python overwrite", python(`open('${SETTINGS}','w').write('{}')`)],
    [
      "a write through a link to .claude/",
      `ln -s .claude c && ${python("open('c/settings.json','w').write('{}')")}`,
    ],
  ])(
    "puts Tandem's hooks back after %s, and records who found it and whose command ran last",
    async (_n, command) => {
      const w = await world();
      await bRuns(w, command);
      expect(tandemHooked(w)).toBe(false);
      await prompt(w, "A");
      expect(tandemHooked(w)).toBe(true);
      const [event, ...more] = restored(w);
      expect(more).toEqual([]);
      expect(event).toMatchObject({
        file: join(w.repo, SETTINGS),
        via: "hook",
        foundBy: sessionId(w, "A"),
        lastCommandBy: sessionId(w, "B"),
      });
      expect(event!.changes).toContain("PreToolUse hook missing");
    },
  );

  it("keeps the person's edit to an unrelated key, and keeps it when Tandem's entry is put back", async () => {
    const w = await world();
    writeFileSync(join(w.repo, SETTINGS), JSON.stringify({ ...settings(w), model: "opus" }, null, 2));
    await prompt(w, "A");
    expect(settings(w).model).toBe("opus");
    expect(restored(w)).toEqual([]);

    const drop = `import json; p='${SETTINGS}'; s=json.load(open(p)); del s['hooks']['PreToolUse']; json.dump(s, open(p,'w'))`;
    await bRuns(w, python(drop));
    expect(tandemHooked(w)).toBe(false);
    await prompt(w, "A");
    expect(tandemHooked(w)).toBe(true);
    expect(settings(w).model).toBe("opus");
    expect(restored(w).map((r) => r.changes)).toEqual([["PreToolUse hook missing"]]);
  });

  it("puts back a removed project config and git hook whole, executable", async () => {
    const w = await world();
    const config = join(w.repo, ".tandem", "config.jsonc");
    const before = readFileSync(config, "utf8");
    const preCommit = join(w.repo, ".git", "hooks", "pre-commit");
    await bRuns(w, "rm -f .tandem/config.jsonc .git/hooks/pre-commit");
    await prompt(w, "B");
    expect(readFileSync(config, "utf8")).toBe(before);
    expect(readFileSync(preCommit, "utf8")).toMatch(/git-hook pre-commit/);
    accessSync(preCommit, constants.X_OK);
    expect(
      restored(w)
        .map((r) => r.file)
        .sort(),
    ).toEqual([preCommit, config].sort());
  });

  it("puts back the last content of a file made unreadable, keeping the bytes it found", async () => {
    const w = await world();
    const before = readFileSync(join(w.repo, SETTINGS), "utf8");
    await bRuns(w, python(`open('${SETTINGS}','w').write('{ not json')`));
    await prompt(w, "A");
    expect(readFileSync(join(w.repo, SETTINGS), "utf8")).toBe(before);
    const [event] = restored(w);
    expect(event!.changes[0]).toMatch(/put back the last content Tandem recorded/);
    const kept = readBlob(join(w.repo, ".git", "tandem", "blobs"), event!.displaced!);
    expect(kept.toString()).toBe("{ not json");
  });

  it("does not undo deinit, nor heal what an agent writes afterwards", async () => {
    const w = await world();
    const de = await cli(["deinit"], { cwd: w.repo });
    expect(de.code, de.stderr).toBe(0);
    expect(existsSync(join(w.repo, SETTINGS))).toBe(false);
    await prompt(w, "A");
    expect(existsSync(join(w.repo, SETTINGS))).toBe(false);
    await bRuns(w, `mkdir -p .claude && ${python(`open('${SETTINGS}','w').write('{}')`)}`);
    await prompt(w, "A");
    expect(readFileSync(join(w.repo, SETTINGS), "utf8")).toBe("{}");
    expect(restored(w)).toEqual([]);
  });

  it("heals what a partial deinit leaves wired, and not what it removed", async () => {
    const w = await world();
    expect((await cli(["deinit", "--clients", "claude-code", "--no-git-hooks"], { cwd: w.repo })).code).toBe(
      0,
    );
    rmSync(join(w.repo, ".git", "hooks", "post-commit"));
    mkdirSync(join(w.repo, ".claude"), { recursive: true });
    writeFileSync(join(w.repo, SETTINGS), "{}");
    await prompt(w, "A");
    expect(readFileSync(join(w.repo, ".git", "hooks", "post-commit"), "utf8")).toMatch(
      /git-hook post-commit/,
    );
    expect(readFileSync(join(w.repo, SETTINGS), "utf8")).toBe("{}");
  });
});
