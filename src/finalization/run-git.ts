/** The one way the end-turn check runs git: only where authorized, never above the repository. */
import { dirname } from "node:path";
import { gitStatusAsync } from "../git/run.js";
import { OWN_PATHSPECS } from "../git/status.js";

/** Whether Tandem may run git with this directory as its working directory. */
export type GitAuthority = (dir: string) => boolean;

/**
 * git with `top` as its working directory, only where authorized. The ceiling stops discovery at
 * `top`: a broken `.git` there must be an error, not a silent step up into an enclosing repository.
 * Pathspecs here are always `:(literal)`, so an inherited GIT_*_PATHSPECS may not reinterpret them.
 */
export async function runGit(
  top: string,
  args: string[],
  may: GitAuthority,
  signal?: AbortSignal,
): Promise<string> {
  if (!may(top)) throw new Error(`refusing to run git in ${top}: it lies outside the authorized roots`);
  const res = await gitStatusAsync(top, args, {
    env: { ...OWN_PATHSPECS, GIT_CEILING_DIRECTORIES: dirname(top) },
    ...(signal ? { signal } : {}),
  });
  if (res.status !== 0) {
    const detail = res.stderr.trim().split("\n")[0] || `exit ${res.status}`;
    throw new Error(`git ${args[0]} failed in ${top}: ${detail}`);
  }
  return res.stdout;
}

export function lines(out: string): string[] {
  return out.split("\n").filter((l) => l !== "");
}

export function msg(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
