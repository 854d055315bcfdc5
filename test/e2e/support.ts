import { randomUUID } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PIN, TANDEM_BIN, tandem } from "../helpers/cli.js";
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

/** A repository prepared exactly as a user would: `tandem init`, then the result committed. */
export function initProject(clients = "claude-code,codex"): Project {
  const base = tempDir("tandem-e2e-");
  const repo = initRepo(join(base, "repo"));
  const init = tandem(["init", ...PIN, "--clients", clients], { cwd: repo, env: { PATH: "/usr/bin:/bin" } });
  if (init.code !== 0) throw new Error(`tandem init failed: ${init.stderr}`);
  g(repo, "add", "-A");
  g(repo, "commit", "-qm", "tandem init");
  const bin = join(base, "bin");
  mkdirSync(bin);
  writeFileSync(join(bin, "tandem"), `#!/bin/sh\nexec "${process.execPath}" "${TANDEM_BIN}" "$@"\n`);
  chmodSync(join(bin, "tandem"), 0o755);
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
