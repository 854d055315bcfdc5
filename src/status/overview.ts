import { type ClaimRef, staleHolders } from "../core/claims/gone-verdict.js";
import { type LeftItem, leftLine } from "../core/claims/left-work.js";
import type { LandingLine } from "../core/land/landing-line.js";
import { plural } from "../core/plural.js";
import { PLAIN, type Printer, spanned } from "../core/printed.js";
import type { RemoteView } from "../core/remote/remote-view.js";
import type { SessionView } from "../sessions/view.js";
import type { SubagentRow } from "../subagents/lifecycle/rows.js";
import { elsewhereProblem, elsewhereSection } from "./overview-elsewhere.js";

/** Something wrong a person should fix, and how. */
export interface OverviewProblem {
  problem: string;
  fix: string;
}

/** What a person sees from `tandem status` outside an agent: the repository, like `git status`. */
export interface Overview {
  /** False when the store could not be read: then nobody knows who is live (see problems). */
  sessionsKnown: boolean;
  live: { name: string; client: string; task: string | null; ageSeconds: number; claims: number }[];
  staleHolding: { name: string; client: string; claims: number; idleSeconds: number }[];
  awaitingApply: { name: string; parent: string | null; state: string; capture: string; apply: string }[];
  /** Uncommitted files of sessions that ended (decision 0029). */
  left: LeftItem[];
  /** Other checkouts, from the last sync; null when the store could not be read. */
  elsewhere: RemoteView | null;
  /** The latest finished `tandem land`s of the last day, newest first. */
  landings: (LandingLine & { who: string | null; ageSeconds: number })[];
  problems: OverviewProblem[];
}

export interface OverviewInput {
  /** null when the store could not be read. */
  sessions: readonly (SessionView & { startedAt: number })[] | null;
  /** Every held claim: a gone session's claims on its left work are listed there, not as stale. */
  claims: readonly ClaimRef[];
  /** The coordination root left work was found for. */
  root: string;
  subagents: readonly SubagentRow[];
  left?: readonly LeftItem[];
  elsewhere: RemoteView | null;
  landings?: readonly (LandingLine & { who: string | null; ts: number })[];
  problems: readonly OverviewProblem[];
  now: number;
  /** How the fixes spell Tandem for the person who reads them; plain `tandem` when not given. */
  printer?: Printer;
}

const PATH = { slot: "PATH" };
const NAME = { slot: "NAME" };
const secs = (ms: number) => Math.max(0, Math.round(ms / 1000));

/** Pure: sessions, sub-agents and problems into the overview's rows. */
export function buildOverview(input: OverviewInput): Overview {
  const { now } = input;
  const sessions = input.sessions ?? [];
  const top = sessions.filter((s) => s.kind === "session");
  return {
    sessionsKnown: input.sessions !== null,
    live: top
      .filter((s) => s.live)
      .map((s) => ({
        name: s.name,
        client: s.client,
        task: s.task,
        ageSeconds: secs(now - s.startedAt),
        claims: s.claims,
      })),
    staleHolding: staleHolders(sessions, input.claims, input.left ?? [], input.root).map(
      ({ session, claims }) => ({
        name: session.name,
        client: session.client,
        claims,
        idleSeconds: secs(now - session.lastSeen),
      }),
    ),
    // A child that has finished and whose work is not (fully) in its parent's checkout yet.
    awaitingApply: input.subagents
      .filter((r) => !r.running && !r.apply.startsWith("applied"))
      .map((r) => ({ name: r.name, parent: r.parent, state: r.state, capture: r.capture, apply: r.apply })),
    left: [...(input.left ?? [])],
    elsewhere: input.elsewhere,
    landings: (input.landings ?? []).map(({ ts, ...l }) => ({ ...l, ageSeconds: secs(now - ts) })),
    problems: [...input.problems, ...leftProblem(input.left ?? [], input.printer ?? PLAIN)],
  };
}

/** Left work is a problem while any exists: nobody's end-turn check covers it. */
function leftProblem(left: readonly LeftItem[], p: Printer): OverviewProblem[] {
  if (left.length === 0) return [];
  return [
    {
      problem: `${plural(left.length, "uncommitted file")} left by ended sessions, covered by nobody's end-turn check`,
      fix: `for each one listed under Left work: ${spanned(p, "recover", PATH, "--session", NAME)} for its saved bytes, ${spanned(p, "discard", PATH, "--yes")} to throw it away, or ask the agent that continues it to adopt it (only an agent can)`,
    },
  ];
}

export function age(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)}h`;
  return `${Math.floor(seconds / 86400)}d`;
}

/** The overview as text; each section says what to do when it holds something. */
export function renderOverview(root: string, o: Overview, now = Date.now(), p: Printer = PLAIN): string {
  const lines = [`Tandem in ${root}`, ""];
  const none = o.sessionsKnown ? "No live agent sessions." : "Sessions unknown: the store cannot be read.";
  lines.push(o.live.length ? `Live sessions (${o.live.length}):` : none);
  for (const s of o.live)
    lines.push(
      `  ${s.name}  ${s.client}  ${age(s.ageSeconds)}  ${plural(s.claims, "claim")}  ${s.task ?? "(no task set)"}`,
    );
  if (o.staleHolding.length) {
    lines.push("", "Stale sessions still holding claims (they no longer block):");
    for (const s of o.staleHolding)
      lines.push(`  ${s.name}  ${s.client}  idle ${age(s.idleSeconds)}  ${plural(s.claims, "claim")}`);
    // Another session's claims need --force; the root releases every one of them.
    lines.push(
      `  once their work is safe: ${spanned(p, "release", "--session", NAME, "--force", { path: root })} (${spanned(p, "claims", "--all")} lists them)`,
    );
  }
  if (o.awaitingApply.length) {
    lines.push("", "Sub-agents awaiting apply:");
    for (const r of o.awaitingApply)
      lines.push(`  ${r.name}  (parent ${r.parent ?? "-"})  ${r.state}; ${r.capture}; ${r.apply}`);
    lines.push(
      `  look with ${spanned(p, "sub", "show", NAME)}, bring the work in with ${spanned(p, "sub", "apply", NAME)}`,
    );
  }
  if (o.left.length) {
    lines.push("", `Left work of ended sessions (${o.left.length}):`);
    for (const i of o.left) lines.push(`  ${leftLine(i, now)}`);
    lines.push(
      `  ${spanned(p, "recover", PATH, "--session", NAME)} brings its saved bytes back; ${spanned(p, "discard", PATH, "--yes")} throws it away; an agent that continues it adopts it (only an agent can)`,
    );
  }
  if (o.landings.length) {
    lines.push("", "Recent landings (tandem land):");
    for (const l of o.landings)
      lines.push(`  ${l.ok ? "✓" : "✗"} ${age(l.ageSeconds)} ago  ${l.who ?? "a person"}  ${l.text}`);
    if (!o.landings[0]!.ok)
      lines.push(`  the latest did not land all the work: ${spanned(p, "land")} again says why`);
  }
  lines.push(...elsewhereSection(o.elsewhere, now));
  const remote = elsewhereProblem(o.elsewhere, now);
  const problems = remote ? [...o.problems, remote] : o.problems;
  lines.push("", problems.length ? "Problems:" : "No problems.");
  for (const pr of problems) lines.push(`  ✗ ${pr.problem}`, `      fix: ${pr.fix}`);
  if (problems.length) lines.push(`  ${spanned(p, "doctor")} checks the store, wiring and config in full`);
  return `${lines.join("\n")}\n`;
}
