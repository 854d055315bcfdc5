import { REMEDIATION_MARKER, type RuleId } from "./verdict.js";

const RULE_TEXT: Record<RuleId, string> = {
  status: "the status check was not run",
  task: "no task was declared",
  "status-box": "the final reply does not show the status box",
};

/**
 * `cmd` is how the agent's own shell starts Tandem (src/core/shell/agent-command.ts): bare `tandem` may
 * not resolve there, so every command an agent is told to run is spelled with it.
 */
export function statusCommand(requireGitFinalization: boolean, cmd = "tandem"): string {
  return requireGitFinalization ? `${cmd} status --end-turn` : `${cmd} status`;
}

const taskStep = (cmd: string) =>
  `run \`${cmd} task "<one line: what you are working on>"\` (or \`${cmd} task ""\` if nothing is new)`;

/** Only what is missing: a session that ran both commands is asked for the box alone. */
function steps(missing: readonly RuleId[], requireGitFinalization: boolean, cmd: string): string {
  const status = statusCommand(requireGitFinalization, cmd);
  const push = requireGitFinalization
    ? ` (it passes only when your own work is committed and pushed; fix what it lists first; a push the remote rejects is \`${cmd} land\`, never a pull or a stash)`
    : "";
  const task = missing.includes("task");
  // The box shows the task: a new task needs a new box, so status follows it.
  const rerun = task || missing.includes("status");
  if (!rerun) {
    return `End your reply with the box \`${status}\` printed, verbatim, in a fenced code block; you need not run the commands again.`;
  }
  const run = [task ? taskStep(cmd) : "", `run \`${status}\`${push}`].filter(Boolean).join(" and then ");
  return `${run[0]!.toUpperCase()}${run.slice(1)}, and end your reply with the box it prints, verbatim, in a fenced code block.`;
}

/** The instruction a blocked Stop gives the agent (Claude: stderr; Cursor: after the marker line). */
export function remediationText(
  missing: readonly RuleId[],
  requireGitFinalization: boolean,
  cmd = "tandem",
): string {
  const what = missing.map((r) => RULE_TEXT[r]).join("; ");
  return `${REMEDIATION_LEAD} ${what}. ${steps(missing, requireGitFinalization, cmd)}`;
}

/**
 * How every remediation text starts. Gemini CLI shows its blocked end of turn as "Agent execution
 * blocked: <reason>" and sends the same reason back as a prompt, so its reason carries no marker
 * line: its prompt hook recognises a repair turn by this lead instead (decision 0031).
 */
export const REMEDIATION_LEAD = "Tandem: this turn used tools, but the end-of-turn ritual is incomplete:";

/**
 * Whether a prompt is Tandem's own remediation (a repair turn, which opens no new window);
 * `plain`: the client's follow-ups carry no marker (`RitualStyle.plainFollowUp`).
 */
export function isRemediationPrompt(text: string, plain: boolean): boolean {
  const t = text.trimStart();
  return t.startsWith(REMEDIATION_MARKER) || (plain && t.startsWith(REMEDIATION_LEAD));
}

/** Cursor submits this as a new user message; the marker line lets the next Stop recognise a repair turn. */
export function cursorFollowup(
  missing: readonly RuleId[],
  requireGitFinalization: boolean,
  cmd = "tandem",
): string {
  return `${REMEDIATION_MARKER} rule=${missing[0] ?? "status"}]\n${remediationText(missing, requireGitFinalization, cmd)}`;
}

/** The short reminder added to prompts. */
export function ritualReminder(requireGitFinalization: boolean, cmd = "tandem"): string {
  return `Tandem reminder: if you use tools this turn, finish with \`${cmd} task "…"\` and \`${statusCommand(requireGitFinalization, cmd)}\`.`;
}

/** Codex human-facing sessions: the answer must carry the status as its footer (docs/product.md §4.5). */
export function codexFooterInstruction(requireGitFinalization: boolean, cmd = "tandem"): string {
  const status = statusCommand(requireGitFinalization, cmd);
  return `Tandem: finish the user's request first. Then run \`${cmd} task "<one line: what you worked on>"\` and, as your final shell call, \`${status}\`; append its output verbatim in a fenced code block at the bottom of this same reply.`;
}
