import { randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { git } from "../../src/git/run.js";
import { PIN, THIN_BIN, tandem } from "../helpers/cli.js";
import { patient } from "../helpers/patience.js";
import { g, initRepo, tempDir } from "../helpers/repo.js";
import type { MessagesRequest } from "./harness/anthropic-fake.js";

export interface Project {
  base: string;
  repo: string;
  /** PATH with a `tandem` shim first, so the agents' shells can run `tandem …`. */
  path: string;
  /** Variables every agent run gets: PATH, a git identity, no user config. */
  env: Record<string, string>;
  read: (file: string) => string | null;
}

/**
 * A repository prepared exactly as a user would: `tandem init`, then the result committed. By
 * default the hooks call this build's `tandem` command by its path: the thin client, answered by
 * the resident server once the first hook has started it (docs/server.md). `onPath` wires them as
 * a global install does (`--command tandem`), with `tandem` on the PATH a login shell sets up too,
 * so agents are told plain `tandem …`; `node` pins `<node> <bundle>`, the Node path alone.
 */
export function initProject(
  clients = "claude-code,codex",
  opts: { onPath?: boolean; node?: boolean } = {},
): Project {
  const base = tempDir("tandem-e2e-");
  const repo = initRepo(join(base, "repo"));
  const bin = join(base, "bin");
  mkdirSync(bin);
  // As npm links a package's command: a symlink to the thin client, which finds its bundles.
  symlinkSync(THIN_BIN, join(bin, "tandem"));
  const home = join(base, "home");
  mkdirSync(home);
  writeFileSync(join(home, ".profile"), `PATH="${bin}:$PATH"\n`);
  const launcher = opts.onPath ? ["--command", "tandem"] : opts.node ? PIN : ["--command", THIN_BIN];
  const init = tandem(["init", ...launcher, "--clients", clients], {
    cwd: repo,
    env: { PATH: opts.onPath ? `${bin}:/usr/bin:/bin` : "/usr/bin:/bin", HOME: home },
  });
  if (init.code !== 0) throw new Error(`tandem init failed: ${init.stderr}`);
  g(repo, "add", "-A");
  // The commit runs the git hooks init wired, which start `tandem` from PATH in the onPath form.
  const identity = ["-c", "user.name=Tandem Test", "-c", "user.email=test@tandem.invalid"];
  git(repo, [...identity, "commit", "-qm", "tandem init"], { env: { PATH: `${bin}:${process.env.PATH}` } });
  const path = `${bin}:${process.env.PATH}`;
  const id = {
    GIT_AUTHOR_NAME: "Agent",
    GIT_AUTHOR_EMAIL: "agent@example.invalid",
    GIT_COMMITTER_NAME: "Agent",
    GIT_COMMITTER_EMAIL: "agent@example.invalid",
  };
  return {
    base,
    repo,
    path,
    env: { PATH: path, ...id },
    read: (file) => {
      try {
        return readFileSync(join(repo, file), "utf8");
      } catch {
        return null;
      }
    },
  };
}

export const newSessionId = (): string => randomUUID();

/** The text of the newest tool_result in a Messages request (what the last tool printed). */
export function lastToolResult(req: MessagesRequest): string {
  const blocks = (req.body.messages ?? []).flatMap((m) =>
    Array.isArray(m.content) ? (m.content as Record<string, unknown>[]) : [],
  );
  const results = blocks.filter((b) => b.type === "tool_result");
  const content = results[results.length - 1]?.content;
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((c) => (c as { text?: string }).text ?? "").join("");
  return "";
}

/** Events of the project's ledger, through the real CLI. */
export function ledgerEvents(
  repo: string,
): { kind: string; name: string | null; client: string | null; data: Record<string, unknown> }[] {
  const out = tandem(["events", "--json"], { cwd: repo });
  return out.stdout
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

/** Polls `cond` until it holds; throws after `timeoutMs`. */
export async function until(cond: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + patient(timeoutMs);
  while (!cond()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The project's claims as `tandem claims --json` lists them. */
export const claims = (p: Project) =>
  JSON.parse(tandem(["claims", "--json"], { cwd: p.repo }).stdout) as { path: string; holder: string }[];
