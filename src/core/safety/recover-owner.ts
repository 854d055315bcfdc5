/**
 * Whose saved bytes a person's `tandem recover PATH` restores when it names no `--session`
 * (decision 0042): a person's shell is no session, so the owner is found from the file's history.
 * Pure over plain data; the command gathers it (src/cli/commands/recover-owner.ts).
 */
import { type LeftOwner, ownerPhrase } from "../claims/left-work.js";

export type OwnerChoice =
  /** The file is left work now: its gone owner's bytes. */
  | { kind: "left"; owner: LeftOwner }
  /** Not left work (someone wrote it since), but one gone session alone has saved versions of it. */
  | { kind: "saved"; owner: LeftOwner }
  /** Several gone sessions have saved versions: the person names one. */
  | { kind: "ambiguous"; owners: LeftOwner[] }
  /** No gone session has saved bytes of it: the command's usual caller rule applies. */
  | { kind: "none" };

/**
 * `left`: the file's left-work owner, if it is left work; `saved`: the sessions with saved versions
 * of it, newest first, live or not. Left work names its owner outright (a path has one newest
 * owner); otherwise only gone sessions count, since a live one would recover its own bytes itself.
 */
export function chooseRecoverOwner(left: LeftOwner | null, saved: readonly LeftOwner[]): OwnerChoice {
  if (left) return { kind: "left", owner: left };
  const gone = saved.filter((o) => !o.live);
  if (gone.length === 1) return { kind: "saved", owner: gone[0]! };
  if (gone.length > 1) return { kind: "ambiguous", owners: gone };
  return { kind: "none" };
}

/** The line said before restoring: whose bytes, and why them. */
export function chosenLine(path: string, c: OwnerChoice & { owner: LeftOwner }, now: number): string {
  const who = ownerPhrase(c.owner, now);
  return c.kind === "left"
    ? `${path} is left work of ${who}: restoring its newest saved version.`
    : `${path} has saved versions of one session that is gone, ${who}: restoring its newest.`;
}

/** The refusal when several gone sessions could be meant: each candidate with the line to run. */
export function ambiguousMessage(
  path: string,
  owners: readonly LeftOwner[],
  now: number,
  cmd = "tandem",
): string {
  return [
    `${path} has saved versions of ${owners.length} sessions that are gone; say whose bytes to restore:`,
    ...owners.map((o) => `  ${cmd} recover ${path} --session ${o.name}    # ${ownerPhrase(o, now)}`),
    `\`${cmd} recover ${path} --list\` shows every version of each.`,
  ].join("\n");
}
