/**
 * Left work (decision 0029): uncommitted files whose newest owner is a session that ended or is no
 * longer live. Pure over plain data: who claimed or touched each path, whether that session still
 * lives, and whether the file is dirty now.
 */
import { type Printer, spanned } from "../printed.js";
import { formatAge } from "../sessions/liveness.js";

/**
 * One session's own mark on a path: its claim (still held, released when the session ended, or
 * released otherwise: commit, release, takeover) or a touch through its own shell commands.
 */
export interface OwnerMark {
  path: string;
  session: string;
  /** Ledger position: a claim's last acquisition, a touch's first. */
  seq: number;
  hold: "held" | "session_end" | "released" | "touched";
}

/** The facts about an owner a listing and a refusal name. */
export interface LeftOwner {
  id: string;
  name: string;
  client: string;
  task: string | null;
  live: boolean;
  /** Whether the session ended (its client said so) rather than went quiet. */
  ended: boolean;
  /** When it ended, or when it was last seen. */
  at: number;
}

export interface LeftItem {
  path: string;
  owner: LeftOwner;
  /** How the owner held it: the marks a discard or a resume acts on. */
  hold: OwnerMark["hold"];
}

/**
 * The newest owner of each path: the session with the newest mark; a session's claim says how it
 * holds the path even when a touch of its own is newer.
 */
export function newestOwners(marks: readonly OwnerMark[]): Map<string, OwnerMark> {
  const out = new Map<string, OwnerMark>();
  for (const m of marks) {
    const best = out.get(m.path);
    if (!best || m.seq > best.seq) {
      const claim = best?.session === m.session && best.hold !== "touched" ? best.hold : null;
      out.set(m.path, claim && m.hold === "touched" ? { ...m, hold: claim } : m);
    } else if (best.session === m.session && best.hold === "touched" && m.hold !== "touched") {
      out.set(m.path, { ...best, hold: m.hold });
    }
  }
  return out;
}

/** A file is left work while it is dirty and its newest owner is gone without giving it up. */
export function leftWork(
  marks: readonly OwnerMark[],
  owners: ReadonlyMap<string, LeftOwner>,
  dirty: (path: string) => boolean,
): LeftItem[] {
  const out: LeftItem[] = [];
  for (const [path, mark] of newestOwners(marks)) {
    const owner = owners.get(mark.session);
    if (!owner || owner.live || mark.hold === "released" || !dirty(path)) continue;
    out.push({ path, owner, hold: mark.hold });
  }
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

/** A gone owner's mark to settle: `held` when its claim is still held; `seen` its last_seen then. */
export interface SettledMark {
  owner: string;
  path: string;
  held: boolean;
  seen: number;
}

/**
 * A gone owner's marks on files that are clean now: the work was committed or thrown away, so
 * they are settled and not looked at again (a later edit by hand is nobody's left work). A claim
 * the gone owner still holds on a clean file is settled too, and released: nothing of it is at
 * risk, and left standing it would cost a `git status` at every lookup for as long as nobody
 * took it over.
 */
export function settledMarks(
  marks: readonly OwnerMark[],
  owners: ReadonlyMap<string, LeftOwner>,
  dirty: (path: string) => boolean,
): SettledMark[] {
  const out: SettledMark[] = [];
  for (const m of marks) {
    const owner = owners.get(m.session);
    if (m.hold === "released" || dirty(m.path) || owner?.live !== false) continue;
    out.push({ owner: m.session, path: m.path, held: m.hold === "held", seen: owner.at });
  }
  return out;
}

/**
 * A live agent's write over left work: refused once per path and turn, so the agent is told
 * whose work it is; the same write again in the same turn proceeds.
 */
export function leftToRefuse(items: readonly LeftItem[], warnedThisTurn: ReadonlySet<string>): LeftItem[] {
  return items.filter((i) => !warnedThisTurn.has(i.path));
}

/** "amber (claude-code, task "fix parser"), ended 3m ago" */
export function ownerPhrase(o: LeftOwner, now: number): string {
  const task = o.task ? `task "${o.task}"` : "no task declared";
  const when = `${o.ended ? "ended" : "last seen"} ${formatAge(now - o.at)} ago`;
  return `${o.name} (${o.client}, ${task}), ${when}`;
}

/** One line of a listing: the path, whose it was, and the commands that settle it. */
export function leftLine(i: LeftItem, now: number): string {
  return `${i.path}: left by ${ownerPhrase(i.owner, now)}`;
}

/**
 * What to do about left work, in commands its reader can run: an agent adopts or recovers (discard
 * refuses inside an agent, decision 0045); a person recovers or discards (adopt makes the work the
 * caller's session's, which a person's shell has none of).
 */
export function leftWhatToDo(path: string, owner: string, p: Printer): string {
  const recover = `${spanned(p, "recover", { path }, "--session", owner)} to get its saved bytes back`;
  if (p.reader === "agent")
    return `${spanned(p, "adopt", { path })} to make it yours, ${recover}, or ask your user to throw it away (a person discards it from their terminal)`;
  return `${recover}, ${spanned(p, "discard", { path }, "--yes")} to throw it away, or ask the agent that should continue it to adopt it (only an agent can)`;
}

/** The first refusal of a write over left work: whose it is, and every way forward. */
export function leftRefusal(items: readonly LeftItem[], now: number, p: Printer): string {
  const lines = [
    `Tandem refused this write: it would overwrite uncommitted work that a session left behind when it ended (left work), and nobody live owns it:`,
    ...items.map((i) => `- ${leftLine(i, now)}`),
    "Its bytes are saved. Ask your user whether to continue it, then:",
    ...items.map((i) => `- ${leftWhatToDo(i.path, i.owner.name, p)}.`),
    "If you mean to replace it, make the same write again in this turn: it proceeds, and the previous bytes stay recoverable with that recover command.",
  ];
  return lines.join("\n");
}
