import { join } from "node:path";
import { divergenceFinding } from "../core/land/divergence.js";
import type { Printer } from "../core/printed.js";
import { gitStatus } from "../git/run.js";
import { lockHolder } from "../land/lock.js";
import type { Finding } from "./finding.js";

const check = "land";

/**
 * How the checkout's branch stands against its upstream, from the last fetch (doctor does not go
 * to the network). No finding without a branch or an upstream: there is nothing to land.
 */
export function checkLanding(root: string, stateDir: string, p: Printer): Finding[] {
  const branch = gitStatus(root, ["symbolic-ref", "-q", "--short", "HEAD"]);
  if (branch.status !== 0) return [];
  const name = branch.stdout.trim();
  const upstream = gitStatus(root, ["rev-parse", "--abbrev-ref", "--end-of-options", `${name}@{upstream}`]);
  if (upstream.status !== 0) return [];
  const counts = gitStatus(root, [
    "rev-list",
    "--left-right",
    "--count",
    `${name}...${name}@{upstream}`,
    "--",
  ]);
  if (counts.status !== 0) return [];
  const [ahead, behind] = counts.stdout.trim().split(/\s+/).map(Number);
  const f = divergenceFinding(
    {
      branch: name,
      upstream: upstream.stdout.trim(),
      ahead: ahead ?? 0,
      behind: behind ?? 0,
      landing: lockHolder(join(stateDir, "land.lock")),
    },
    p,
  );
  return [{ check, ...f }];
}
