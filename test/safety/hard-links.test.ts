import { linkSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openDb } from "../../src/store/db.js";
import { listEvents } from "../../src/store/events/list.js";
import { raw } from "../../src/store/handle.js";
import { claudeBash, claudeWrite, denied, type Payload } from "../helpers/hooks.js";
import { initRepo } from "../helpers/repo.js";
import { Agent } from "../server/agents.js";
import { cleanEnv, type Env, scratch, startServer, stateDir, THIN } from "../server/support.js";

/**
 * Issue 25 item 3, decision 0045: a person's `ln f.txt h` runs no hook. When A holds f.txt with
 * uncommitted bytes, B writing `h` writes A's file: refused up front, naming A and both names.
 * Agents are live processes; their hooks and commands run as their children, through the real
 * `tandem` command, by the Node path and by the resident server.
 */
type Way = "node" | "server";
const WAYS: Record<Way, Env> = {
  node: { TANDEM_SERVER: "0" },
  server: { TANDEM_NODE: "/nonexistent/node-must-not-run" },
};

interface World {
  repo: string;
  env: Env;
  a: Agent;
  b: Agent;
}

const hookAs = (agent: Agent, w: World, event: string, payload: Payload) =>
  agent.run(THIN, ["hook", "claude-code", event], {
    cwd: w.repo,
    env: w.env,
    input: JSON.stringify(payload),
  });

/** A Write by `agent` through its pre- and post-tool hooks, written in place as a client does; the refusal if any. */
async function writeAs(
  agent: Agent,
  w: World,
  who: string,
  file: string,
  text: string,
): Promise<string | null> {
  const payload = claudeWrite(w.repo, who, file, text);
  const refused = denied(await hookAs(agent, w, "pre-tool-use", payload));
  if (refused !== null) return refused;
  writeFileSync(join(w.repo, file), text);
  await hookAs(agent, w, "post-tool-use", { ...payload, hook_event_name: "PostToolUse" });
  return null;
}

/** A shell command by B, run inside B's process when its pre-tool hook lets it; the refusal if any. */
async function bashAsB(w: World, command: string): Promise<string | null> {
  const refused = denied(await hookAs(w.b, w, "pre-tool-use", claudeBash(w.repo, "B", command)));
  if (refused !== null) return refused;
  await w.b.run("/bin/sh", ["-c", command], { cwd: w.repo, env: w.env });
  await hookAs(w.b, w, "post-tool-use", claudeBash(w.repo, "B", command, "PostToolUse"));
  return null;
}

/** A holds f.txt with uncommitted bytes; a person has made `h`, a hard link to it; B is live. */
async function world(way: Way): Promise<World> {
  const repo = initRepo(join(scratch(), "repo"), { "f.txt": "committed\n", "g.txt": "nobody's\n" });
  const bin = join(scratch(), "bin");
  mkdirSync(bin);
  symlinkSync(THIN, join(bin, "tandem"));
  if (way === "server") await startServer(repo);
  const env = cleanEnv({ PATH: `${bin}:${process.env.PATH}`, ...WAYS[way] });
  const dir = scratch("tandem-agents-");
  const w = { repo, env, a: Agent.start("claude", dir), b: Agent.start("claude", dir) };
  expect(await writeAs(w.a, w, "A", "f.txt", "A's precious edit\n")).toBeNull();
  linkSync(join(repo, "f.txt"), join(repo, "h"));
  const prompt = { session_id: "B", cwd: repo, hook_event_name: "UserPromptSubmit", prompt: "tidy up" };
  await hookAs(w.b, w, "user-prompt-submit", prompt);
  return w;
}

function ledger(repo: string) {
  const db = openDb(stateDir(repo));
  try {
    const names = raw(db).prepare("SELECT id, native_id AS native FROM sessions").all() as {
      id: string;
      native: string;
    }[];
    const native = (id: unknown) => names.find((s) => s.id === id)?.native;
    const claims = raw(db)
      .prepare(
        "SELECT c.path, s.native_id AS holder FROM claims c JOIN sessions s ON s.id = c.session_id ORDER BY c.path",
      )
      .all();
    const denials = listEvents(db)
      .filter((e) => e.kind === "claim.denied")
      .flatMap((e) => (e.data as { refused: { path: string; reason: string; holder: string }[] }).refused)
      .map((r) => ({ path: r.path, reason: r.reason, holder: native(r.holder) }));
    return { claims, denials };
  } finally {
    db.close();
  }
}

const HELD_THROUGH_H =
  /- h: the same file as f\.txt \(a hard link: writing one name writes both\), held by agent-\S+ \(claude-code/;

describe.each(["node", "server"] as Way[])("a write through a hard link a person made (%s path)", (way) => {
  it("refuses B's Write tool on h, A's f.txt under another name, and A's bytes stay", async () => {
    const w = await world(way);
    const refused = await writeAs(w.b, w, "B", "h", "B's rewrite\n");
    expect(refused).toMatch(HELD_THROUGH_H);
    expect(refused).toMatch(/Tandem refused this edit; nothing was changed and nothing was claimed/);
    expect(readFileSync(join(w.repo, "f.txt"), "utf8")).toBe("A's precious edit\n");
    expect(ledger(w.repo).claims).toEqual([{ path: "f.txt", holder: "A" }]);
    expect(ledger(w.repo).denials).toEqual([{ path: join(w.repo, "h"), reason: "held", holder: "A" }]);
  });

  it("refuses B's `echo x > h` outright instead of running it under the safety net", async () => {
    const w = await world(way);
    expect(await bashAsB(w, "echo x > h")).toMatch(HELD_THROUGH_H);
    expect(readFileSync(join(w.repo, "f.txt"), "utf8")).toBe("A's precious edit\n");
    expect(ledger(w.repo).denials).toEqual([{ path: "h", reason: "held", holder: "A" }]);
  });

  it("lets B write a hard link to a file no live peer holds, and claims only the name it wrote", async () => {
    const w = await world(way);
    linkSync(join(w.repo, "g.txt"), join(w.repo, "k"));
    expect(await writeAs(w.b, w, "B", "k", "B's k\n")).toBeNull();
    expect(await bashAsB(w, "echo more >> k")).toBeNull();
    expect(readFileSync(join(w.repo, "g.txt"), "utf8")).toBe("B's k\nmore\n");
    expect(ledger(w.repo).claims).toEqual([
      { path: "f.txt", holder: "A" },
      { path: "k", holder: "B" },
    ]);
  });
});
