import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openDb } from "../../src/store/db.js";
import { listEvents } from "../../src/store/events/list.js";
import { wiringFiles } from "../../src/store/wiring/rows.js";
import { geminiPolicyFile, legacyPolicyFile } from "../../src/wiring/gemini-policy.js";
import { wiringStamp } from "../../src/wiring/wiring-record.js";
import { tandem } from "../helpers/cli.js";
import { hook } from "../helpers/hooks.js";
import { g } from "../helpers/repo.js";
import { pathWithoutCodex, tandemShim } from "../wiring/helpers.js";
import { liveServer, scratch, serverOutput, startServer, stateDir, waitFor } from "./support.js";

/**
 * Issue 42, item 1: two repositories, each wired by its own install of Tandem, share one user home.
 * Gemini CLI reads its allow rule only from the user's policies, so each repository keeps its own
 * file there (decision 0048): neither init, hook, server nor deinit of one touches the other's.
 */

interface Side {
  repo: string;
  launcher: string;
  policy: string;
}

function side(base: string, name: string, env: Record<string, string>): Side {
  const repo = join(base, name);
  mkdirSync(repo);
  g(repo, "init", "-q", "-b", "main");
  g(repo, "commit", "-q", "--allow-empty", "-m", "initial");
  // An install of its own: an absolute launcher no other repository uses.
  const launcher = tandemShim(join(base, `install-${name}`, "bin"));
  return { repo, launcher, policy: geminiPolicyFile(env, repo) };
}

function restored(s: Side): { file: string; via: string }[] {
  const db = openDb(stateDir(s.repo), { readonly: true });
  try {
    return listEvents(db, { kind: "wiring.restored" }).map((e) => e.data as { file: string; via: string });
  } finally {
    db.close();
  }
}

/** The policy file as `s`'s store records it, and as it is now: what a heal compares. */
function recordOf(s: Side): string {
  const db = openDb(stateDir(s.repo), { readonly: true });
  try {
    const row = wiringFiles(db).find((r) => r.path === s.policy);
    return `recorded ${row ? `stamp ${row.stamp}, blob ${row.blob}` : "nothing"}; now stamp ${wiringStamp(s.policy)}`;
  } finally {
    db.close();
  }
}

/**
 * Waits for `s`'s server to restore its file; a timeout says when the wait began, what that server
 * logged, whether it lives, and what its store records of the file.
 */
async function restoredBy(s: Side, who: string): Promise<void> {
  const began = new Date().toISOString();
  try {
    await waitFor(`${who}'s server to put its rule back`, () => restored(s).length >= 1);
  } catch (err) {
    const live = liveServer(s.repo) ? "live" : "gone";
    throw new Error(
      `${(err as Error).message} (since ${began}); ${recordOf(s)}; ${who}'s server is ${live}, it logged:\n${serverOutput(s.repo)}`,
    );
  }
}

const read = (path: string): string | null => (existsSync(path) ? readFileSync(path, "utf8") : null);

/** What an older Tandem wrote into the one shared file, for `cmd`. */
const legacyText = (cmd: string): string =>
  [
    "# Written by `tandem init`; `tandem deinit` deletes it.",
    "# Lets agents run Tandem's end-of-turn commands without asking.",
    "[[rule]]",
    'toolName = "run_shell_command"',
    `commandPrefix = [${JSON.stringify(`${cmd} task`)}, ${JSON.stringify(`${cmd} status`)}]`,
    'decision = "allow"',
    "priority = 500",
    "",
  ].join("\n");

describe("two repositories and two installs in one home", () => {
  it("each keeps its own Gemini rule: no rewrite loop, both doctors clean, deinit removes only its own", async () => {
    const base = scratch();
    const home = join(base, "home");
    mkdirSync(join(home, ".gemini"), { recursive: true });
    // Gemini trusts both projects, so doctor's Gemini lines are about the wiring alone.
    writeFileSync(join(home, ".gemini", "trustedFolders.json"), JSON.stringify({ [base]: "TRUST_FOLDER" }));
    const env = { HOME: home, GEMINI_CLI_HOME: home, PATH: pathWithoutCodex() };
    const a = side(base, "alpha", env);
    const b = side(base, "beta", env);
    expect(a.policy).not.toBe(b.policy);
    // The file an older Tandem of alpha's left: alpha's init moves it; one of another launcher stays.
    mkdirSync(join(home, ".gemini", "policies"));
    writeFileSync(legacyPolicyFile(env), legacyText(a.launcher));

    const init = (s: Side) => {
      const r = tandem(["init", "--command", s.launcher, "--clients", "claude-code,gemini-cli"], {
        cwd: s.repo,
        env,
      });
      expect(r.code, r.stdout + r.stderr).toBe(0);
      return r.stdout;
    };
    expect(init(a)).toContain("deleted");
    expect(read(legacyPolicyFile(env))).toBeNull();
    init(b);
    const mine = (s: Side, other: Side) => {
      const text = read(s.policy)!;
      expect(text).toContain(`"${s.launcher} task", "${s.launcher} status"`);
      expect(text).not.toContain(other.launcher);
    };
    mine(a, b);
    mine(b, a);
    const before = { a: read(a.policy), b: read(b.policy) };

    // Both active: a resident server in each, watching the same policy directory. A server keeps no
    // GEMINI_CLI_HOME (src/resident/start.ts): it heals the file init recorded, not one of its home.
    const serverEnv = { ...env, HOME: join(base, "server-home"), GEMINI_CLI_HOME: "" };
    await startServer(a.repo, serverEnv);
    await startServer(b.repo, serverEnv);
    for (let round = 0; round < 3; round++) {
      for (const s of [a, b]) {
        const start = {
          session_id: `g-${round}`,
          cwd: s.repo,
          hook_event_name: "SessionStart",
          source: "startup",
        };
        expect(hook("gemini-cli", "session-start", start, { cwd: s.repo, env }).code).toBe(0);
        init(s);
      }
    }
    expect(read(a.policy)).toBe(before.a);
    expect(read(b.policy)).toBe(before.b);

    // Each doctor is clean: its own file current, the other's not its concern.
    for (const s of [a, b]) {
      const r = tandem(["doctor"], { cwd: s.repo, env });
      expect(r.code, r.stdout).toBe(0);
      expect(r.stdout).not.toMatch(/^✗ .*(polic|client hooks|gemini)/im);
      expect(r.stdout).toMatch(
        /^✓ client hooks: claude-code, gemini-cli and the git hooks are wired and current/m,
      );
    }

    // A sentinel both servers see: alpha's own file removed. Alpha's server puts it back once;
    // every earlier change in the directory was handled before it, and none was restored.
    rmSync(a.policy);
    await restoredBy(a, "alpha");
    expect(read(a.policy)).toBe(before.a);
    expect(restored(a)).toEqual([expect.objectContaining({ file: a.policy })]);
    expect(restored(b)).toEqual([]);

    // Deinit in alpha removes alpha's rule only, and beta's server does not put it back.
    expect(tandem(["deinit", "--clients", "claude-code,gemini-cli"], { cwd: a.repo, env }).code).toBe(0);
    expect(read(a.policy)).toBeNull();
    expect(read(b.policy)).toBe(before.b);
    rmSync(b.policy);
    await restoredBy(b, "beta");
    expect(read(b.policy)).toBe(before.b);
    expect(read(a.policy)).toBeNull();
    expect(readdirSync(join(home, ".gemini", "policies"))).toEqual([b.policy.split("/").at(-1)]);
    expect(restored(a)).toHaveLength(1);
    expect(restored(b)).toHaveLength(1);
    expect(existsSync(join(base, "server-home"))).toBe(false);
    const r = tandem(["doctor"], { cwd: b.repo, env });
    expect(r.stdout).toMatch(
      /^✓ client hooks: claude-code, gemini-cli and the git hooks are wired and current/m,
    );
  });
});
