/**
 * What a compare-and-swap push of one ref came to, read from `git push --porcelain`: won, lost
 * the race (someone else moved the ref: fetch and decide again), refused by the remote (a hook or
 * policy against custom refs: retrying cannot help), or no answer at all.
 */
export type PushOutcome =
  | { kind: "ok" }
  | { kind: "stale" }
  | { kind: "refused"; reason: string }
  | { kind: "unreachable"; reason: string };

/** Remote-side rejections that mean a concurrent update, not a policy. */
const CONTENTION = /stale info|fetch first|non-fast-forward|lock|failed to update ref|incorrect old value/i;

export function pushOutcome(status: number, stdout: string, stderr: string, ref: string): PushOutcome {
  const line = stdout.split("\n").find((l) => l.split("\t")[1]?.endsWith(`:${ref}`));
  if (status === 0 && line && !line.startsWith("!")) return { kind: "ok" };
  if (!line) return { kind: "unreachable", reason: firstError(stderr) };
  const summary = line.split("\t")[2] ?? "";
  if (CONTENTION.test(summary)) return { kind: "stale" };
  const reason = /\((.*)\)\s*$/.exec(summary)?.[1] ?? summary;
  return { kind: "refused", reason: reason || firstError(stderr) };
}

/** The line of git's stderr worth showing: the fatal/error one, else the first. */
export function firstError(stderr: string): string {
  const lines = stderr
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.find((l) => /^(fatal|error):/.test(l)) ?? lines[0] ?? "no answer";
}

/** Why a remote refused a whole atomic push, in its stderr, when that means a concurrent update. */
const ATOMIC_CONTENTION =
  /cannot lock ref|exists; cannot create|cannot process|incorrect old value|stale info/i;

/**
 * What an atomic push of several refs came to: won only if every ref moved; lost the race if any
 * ref was stale (or a racer's new ref stands where one of ours would go); else refused.
 */
export function atomicOutcome(
  status: number,
  stdout: string,
  stderr: string,
  refs: readonly string[],
): PushOutcome {
  const lines = refs.map((ref) => stdout.split("\n").find((l) => l.split("\t")[1]?.endsWith(`:${ref}`)));
  if (lines.some((l) => l === undefined)) return { kind: "unreachable", reason: firstError(stderr) };
  if (status === 0 && lines.every((l) => !l?.startsWith("!"))) return { kind: "ok" };
  const summaries = lines.map((l) => l?.split("\t")[2] ?? "");
  if (summaries.some((s) => CONTENTION.test(s) && !/atomic/i.test(s)) || ATOMIC_CONTENTION.test(stderr))
    return { kind: "stale" };
  const own = summaries.find((s) => !/atomic/i.test(s)) ?? summaries[0] ?? "";
  const reason = /\((.*)\)\s*$/.exec(own)?.[1] ?? own;
  return { kind: "refused", reason: reason || firstError(stderr) };
}
