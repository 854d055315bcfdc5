import { type LeftItem, leftLine, leftWhatToDo } from "../claims/left-work.js";
import { type Printer, spanned } from "../printed.js";
import { formatAge } from "../sessions/liveness.js";

export interface PeerSummary {
  name: string;
  client: string;
  task: string | null;
  claims: string[];
  lastSeen: number;
}

export interface SessionContextInput {
  name: string;
  client: string;
  kind: "session" | "subagent";
  parentName: string | null;
  requireGitFinalization: boolean;
  /** How the agent's shell starts Tandem (src/core/shell/agent-command.ts); `tandem` when not given. */
  command?: string;
  /** Formatted config problems, each with its fix. */
  configProblems?: string[];
  peers: PeerSummary[];
  /** Uncommitted files sessions left when they ended (decision 0029). */
  left?: readonly LeftItem[];
  now: number;
}

/** The ritual in one line; the Stop hook enforces the same two commands. */
export function ritualLine(requireGitFinalization: boolean, cmd = "tandem"): string {
  const status = requireGitFinalization ? `${cmd} status --end-turn` : `${cmd} status`;
  const push = requireGitFinalization ? " (it passes only once your own work is committed and pushed)" : "";
  return `Before ending a turn in which you used tools, run \`${status}\`${push} and \`${cmd} task "<what you are working on>"\` (\`${cmd} task ""\` if nothing changed), and show the status box at the end of your reply.`;
}

function peerLine(p: PeerSummary, now: number): string {
  const task = p.task ? `task "${p.task}"` : "no task declared";
  const shown = p.claims.slice(0, 5).join(", ");
  const more = p.claims.length > 5 ? `, +${p.claims.length - 5} more` : "";
  const claims = p.claims.length ? `holds ${shown}${more}` : "holds no files";
  return `- ${p.name} (${p.client}, ${task}, ${claims}; seen ${formatAge(now - p.lastSeen)} ago)`;
}

function configLines(problems: readonly string[]): string[] {
  if (problems.length === 0) return [];
  return [
    `Tandem's configuration has ${problems.length === 1 ? "a problem" : `${problems.length} problems`}. Coordination stays on: Tandem ignores what it cannot use and falls back to its defaults for it. Tell your user, so they can fix it:`,
    ...problems.map((p) => `- ${p}`),
  ];
}

/** What an agent is told when its session starts (docs/product.md §4.5). */
export function sessionStartContext(c: SessionContextInput): string {
  const lines = [
    `Tandem: you are ${c.name}. Other AI agents may work in this repository at the same time; an edit of a file another live agent holds is refused with a message naming it — then work on something else or coordinate, never work around it.`,
  ];
  if (c.kind === "subagent") {
    lines.push(
      `You are a sub-agent of ${c.parentName ?? "another session"}, working in your own git worktree. Commit your work or leave it uncommitted: all of it is captured when you finish and applied back to the parent. The end-of-turn ritual does not apply to you.`,
    );
  } else {
    lines.push(ritualLine(c.requireGitFinalization, c.command));
  }
  lines.push(...configLines(c.configProblems ?? []));
  lines.push(c.peers.length ? "Live peers right now:" : "No other live agent sessions right now.");
  lines.push(...c.peers.map((p) => peerLine(p, c.now)));
  lines.push(...leftLines(c.left ?? [], c.command, c.now));
  return lines.join("\n");
}

/** The most left-work lines an agent's start context carries; the rest are counted, not listed. */
export const START_LEFT_LINES = 20;

/** Left work is nobody's until someone adopts it: a write over it is refused once, then proceeds. */
function leftLines(left: readonly LeftItem[], cmd: string | undefined, now: number): string[] {
  const p: Printer = { reader: "agent", launcher: cmd ?? "tandem" };
  if (left.length === 0) return [];
  const shown = left.slice(0, START_LEFT_LINES);
  const more = left.length - shown.length;
  return [
    "Left work (uncommitted files of sessions that ended; do not overwrite them unasked):",
    ...shown.map((i) => `- ${leftLine(i, now)}; ${leftWhatToDo(i.path, i.owner.name, p)}`),
    ...(more > 0 ? [`- and ${more} more: ${spanned(p, "status")} lists them all.`] : []),
  ];
}
