import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { WorkTree } from "../config/git-discovery.js";
import type { LocalSide } from "../core/remote/holders.js";
import { checkoutIdentity } from "./checkout.js";

function read(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

/** The branch HEAD names, read from the Git directory (no git process on a hook's path). */
export function headBranch(gitDir: string): string | null {
  const head = read(join(gitDir, "HEAD"))?.trim() ?? "";
  return head.startsWith("ref: refs/heads/") ? head.slice("ref: refs/heads/".length) : null;
}

/** `<remote>/<branch>` the branch tracks, from the repository's config file; null when none. */
export function upstreamOf(commonDir: string, branch: string | null): string | null {
  if (!branch) return null;
  const text = read(join(commonDir, "config"));
  if (!text) return null;
  const section = new RegExp(`^\\[branch "${branch.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}"\\]$`);
  let inside = false;
  let remote: string | null = null;
  let merge: string | null = null;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line.startsWith("[")) inside = section.test(line);
    else if (inside) {
      const m = /^(remote|merge)\s*=\s*(.+)$/.exec(line);
      if (m?.[1] === "remote") remote = m[2]!.trim();
      if (m?.[1] === "merge") merge = m[2]!.trim().replace(/^refs\/heads\//, "");
    }
  }
  return remote && merge ? `${remote}/${merge}` : null;
}

/** Where this checkout stands, for telling which remote work will meet it. */
export function localSide(stateDir: string, repo: WorkTree, targetBranches: readonly string[]): LocalSide {
  const branch = headBranch(repo.gitDir);
  return {
    checkout: checkoutIdentity(stateDir, repo.top).id,
    branch,
    upstream: upstreamOf(repo.commonDir, branch),
    targetBranches,
  };
}
