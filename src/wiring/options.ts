import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ClientName } from "../clients/index.js";
import { CLIENT_NAMES } from "../clients/index.js";
import { PROJECT_CONFIG, resolveRoot } from "../config/root.js";
import type { InitFile } from "../config/schema.js";
import { TandemError, UsageError } from "../errors.js";
import { recordedInit } from "./init-record.js";

type Env = Readonly<Record<string, string | undefined>>;

/** `--clients claude-code,codex`: every name known, none twice, in the order given. */
export function parseClients(list: string | undefined): ClientName[] {
  if (list === undefined) return [...CLIENT_NAMES];
  const names = list
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.length === 0)
    throw new UsageError(`--clients is empty; use a comma-separated list of ${CLIENT_NAMES.join(", ")}.`);
  for (const n of names) {
    if (!(CLIENT_NAMES as string[]).includes(n)) {
      throw new UsageError(
        `unknown client "${n}" in --clients; use a comma-separated list of ${CLIENT_NAMES.join(", ")}.`,
      );
    }
  }
  return [...new Set(names)] as ClientName[];
}

/** The coordination root (docs/product.md §2); init wires git hooks, so it must lie inside a repository. */
export function initRoot(cwd: string, flag: string | undefined, env: Env): string {
  const resolved = resolveRoot({ cwd, flag, env });
  if (!resolved.repo) {
    throw new TandemError(
      `${resolved.root} is not inside a Git repository; run \`git init\` there first, or pass --root DIR.`,
      2,
    );
  }
  return resolved.root;
}

/** The `init` record of the project's config; null when absent or unreadable (init then decides anew). */
export function readRecordedInit(root: string): InitFile | null {
  try {
    return recordedInit(readFileSync(join(root, PROJECT_CONFIG), "utf8"));
  } catch {
    return null;
  }
}
