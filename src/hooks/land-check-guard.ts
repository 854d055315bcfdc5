/**
 * The land check, judged before it runs as the lander's own shell command (issue 37.6): the same
 * shell reader and git impact guard a pre-tool hook applies to a Bash call, and the same rule that
 * a write to a file a live peer holds is refused. The check runs in a private worktree, so the
 * reader is given that directory and the variables the check receives (TANDEM_LAND_TOP …).
 */
import { resolve } from "node:path";
import { groupOf } from "../claims/holders.js";
import { peerOwned } from "../claims/peer-owned.js";
import { gitGuardMessage } from "../core/guards/git-guard.js";
import { landCheckRefusal, peerHits } from "../core/guards/land-check.js";
import { isInside, relativeKey } from "../core/paths/lexical.js";
import type { Db } from "../store/db.js";
import type { SessionRow } from "../store/sessions/rows.js";
import { toolTargets } from "../targets/tool-targets.js";
import { guardGitCallsIn } from "./git-guard.js";

export interface LandCheckScope {
  db: Db;
  /** The coordination root: claim keys are relative to it. */
  root: string;
  /** The shared checkout's top. */
  top: string;
  self: SessionRow | null;
  freshnessSeconds: number;
  env: Readonly<Record<string, string | undefined>>;
}

/** Null when the check may run; otherwise the refusal the lander reads. */
export async function judgeLandCheck(
  scope: LandCheckScope,
  command: string,
  dir: string,
): Promise<string | null> {
  // The reader knows only the variables a command sets itself: the check is given these two.
  const given = `export TANDEM_LAND_TOP=${shq(scope.top)} TANDEM_LAND_CHECK_DIR=${shq(dir)}\n${command}`;
  const tool = { name: "Bash", input: { command: given }, useId: null };
  const found = await toolTargets(tool, { cwd: dir, env: scope.env, home: scope.env.HOME || undefined });
  const now = Date.now();
  const self = scope.self;
  const owners = peerOwned(scope.db, {
    worktree: scope.root,
    self: self?.id ?? "",
    group: self ? groupOf(scope.db, self) : "",
    now,
    freshnessSeconds: scope.freshnessSeconds,
  });
  const keys = found.raws.map((raw) => {
    const abs = resolve(dir, raw);
    return isInside(scope.root, abs) ? relativeKey(scope.root, abs) : null;
  });
  const hits = peerHits(keys, owners);
  const guard = guardGitCallsIn(
    {
      db: scope.db,
      cwd: dir,
      root: scope.root,
      ownTop: scope.top,
      self,
      now,
      freshnessSeconds: scope.freshnessSeconds,
    },
    found.gitCalls,
  );
  if (hits.length === 0 && guard.findings.length === 0) return null;
  const git = guard.findings.length > 0 ? gitGuardMessage(guard.findings, now) : null;
  return landCheckRefusal(command, hits, git);
}

function shq(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}
