import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDb } from "../../src/store/db.js";
import { listEvents } from "../../src/store/events/list.js";
import { dumpProjections, rebuildProjections } from "../../src/store/repair/rebuild.js";
import { tandem } from "../helpers/cli.js";
import { claudeBash, claudeWrite, denied } from "../helpers/hooks.js";
import { g } from "../helpers/repo.js";
import { cleanEnv, type Env, scratch, startServer, stateDir, thinHook } from "./support.js";

/** Issue 25 items 1 and 4 through the resident server: the hooks that keep and watch are answered by it. */
const VIA_SERVER: Env = { TANDEM_NODE: "/nonexistent/node-must-not-run" };

const sleepers: ChildProcess[] = [];
afterAll(() => {
  for (const s of sleepers.splice(0)) s.kill();
});

function agentEnv(): Env {
  const child = spawn("sleep", ["600"], { stdio: "ignore" });
  sleepers.push(child);
  return cleanEnv({ ...VIA_SERVER, CLAUDE_PID: String(child.pid) });
}

function ledger(repo: string) {
  const db = openDb(stateDir(repo));
  try {
    const events = listEvents(db);
    const live = dumpProjections(db);
    rebuildProjections(db);
    return { events, projectionsMatch: JSON.stringify(dumpProjections(db)) === JSON.stringify(live) };
  } finally {
    db.close();
  }
}

describe("every owner version kept and watched, through the resident server", () => {
  it("B's background job overwrites A's newer version: B's next hook records it, A is told, recover returns it", async () => {
    const repo = join(scratch(), "repo");
    mkdirSync(repo);
    g(repo, "init", "-q", "-b", "main");
    writeFileSync(join(repo, "f.txt"), "committed\n");
    g(repo, "add", "f.txt");
    g(repo, "commit", "-q", "-m", "initial");
    await startServer(repo);
    const a = { cwd: repo, env: agentEnv() };
    const b = { cwd: repo, env: agentEnv() };
    const prompt = async (who: string, opts: typeof a) =>
      (
        await thinHook(
          "claude-code",
          "user-prompt-submit",
          { session_id: who, cwd: repo, hook_event_name: "UserPromptSubmit", prompt: "go" },
          opts,
        )
      ).stdout;
    const writeAsA = async (text: string) => {
      const payload = claudeWrite(repo, "A", "f.txt", text);
      expect(denied(await thinHook("claude-code", "pre-tool-use", payload, a))).toBeNull();
      writeFileSync(join(repo, "f.txt"), text);
      const post = await thinHook(
        "claude-code",
        "post-tool-use",
        { ...payload, hook_event_name: "PostToolUse" },
        a,
      );
      expect(post.code).toBe(0);
    };

    await prompt("B", b);
    await writeAsA("A's first edit\n");
    const go = join(scratch(), "go");
    const job = `(until [ -e ${go} ]; do sleep 0.1; done; python3 -c "open('f.txt','w').write('background job')") &`;
    try {
      expect(denied(await thinHook("claude-code", "pre-tool-use", claudeBash(repo, "B", job), b))).toBeNull();
      execFileSync("bash", ["-c", job], { cwd: repo, stdio: "ignore" });
      await thinHook("claude-code", "post-tool-use", claudeBash(repo, "B", job, "PostToolUse"), b);
      await writeAsA("A's newer edit\n");
    } finally {
      writeFileSync(go, "");
    }
    for (let i = 0; i < 600 && readFileSync(join(repo, "f.txt"), "utf8") !== "background job"; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(readFileSync(join(repo, "f.txt"), "utf8")).toBe("background job");

    await prompt("B", b);
    const told = await prompt("A", a);
    expect(told).toMatch(/f\.txt: changed by a writer Tandem did not see run/);
    expect(told).toMatch(/tandem recover f\.txt/);

    const { events: all, projectionsMatch } = ledger(repo);
    const events = all.map((e) => ({ kind: e.kind, data: e.data as Record<string, unknown> }));
    expect(events.filter((e) => e.kind === "hook.error")).toEqual([]);
    const owners = events.filter((e) => e.kind === "work.preserved" && e.data.reason === "owner");
    const clobbers = events.filter((e) => e.kind === "work.clobbered");
    expect(clobbers.map((e) => e.data)).toEqual([
      expect.objectContaining({ path: "f.txt", via: "watch", version: owners.at(-1)!.data.version }),
    ]);
    expect(projectionsMatch).toBe(true);

    const rec = tandem(["recover", "f.txt", "--session", "A"], { cwd: repo });
    expect(rec.code).toBe(0);
    expect(readFileSync(join(repo, "f.txt"), "utf8")).toBe("A's newer edit\n");
  });
});
