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
