/**
 * The end-of-turn ritual (docs/product.md §6) as a pure function over the session's
 * events: which window counts, which rule is unmet, and how it is enforced.
 */

import type { RitualStyle } from "../../clients/types.js";

export interface RitualEvent {
  seq: number;
  kind: string;
  data: unknown;
}

export type StopRitualMode = "enforce" | "observe" | "off";
export type Enforcement = "enforced" | "observe_only" | "disabled" | "fail_open";

export interface RitualInput {
  /** The client's ritual style (ClientSpec.ritual, from its folder) and its label for notes. */
  client: { label: string; ritual: RitualStyle };
  sessionKind: "session" | "subagent";
  /** The session's events in ascending order, up to and including the cutoff. */
  events: readonly RitualEvent[];
  /** Events after this sequence number are ignored (they happened after the Stop). */
  cutoffSeq: number;
  lastAssistantMessage: string | null;
  mode: StopRitualMode;
  requireGitFinalization: boolean;
  /** Clients that do not cap their own follow-ups: consecutive blocks allowed before the turn may end anyway. */
  blockCap: number;
  /** Whether the final reply shows the status box (rule 3 input, decided by the box's own module). */
  replyHasBox: boolean;
}

export type RuleId = "status" | "task" | "status-box";

export interface StopVerdict {
  verdict: "pass" | "block";
  /** The first unmet rule, or null. */
  rule: RuleId | null;
  /** Every unmet rule, for the remediation message. */
  missing: RuleId[];
  enforcement: Enforcement;
  note: string | null;
}

/** Remediation prompts start with this marker; they never open a new window. */
export const REMEDIATION_MARKER = "[tandem:stop-remediation";
export const MAX_REMEDIATION_HOPS = 8;

const TOOL_KINDS = new Set([
  "tool.requested",
  "tool.completed",
  "files.touched",
  "claim.acquired",
  "claim.denied",
]);

/**
 * Whether the window holds a tool call that ran. A call Tandem refused leaves `tool.requested`
 * followed at once by `claim.denied` (one transaction) and nothing ran: it demands no ritual. Cline
 * still fires PostToolUse for a call it skipped (docs/clients.md §14.6): that call's
 * `tool.completed` does not count either.
 */
function usedTools(window: readonly RitualEvent[]): boolean {
  const refused = new Set<string>();
  return window.some((e, i) => {
    if (!TOOL_KINDS.has(e.kind) || e.kind === "claim.denied") return false;
    if (e.kind === "tool.requested" && window[i + 1]?.kind === "claim.denied") {
      const id = useId(e);
      if (id) refused.add(id);
      return false;
    }
    const id = e.kind === "tool.completed" ? useId(e) : null;
    return !(id && refused.has(id));
  });
}

function useId(e: RitualEvent): string | null {
  const id = (e.data as { toolUseId?: unknown } | null)?.toolUseId;
  return typeof id === "string" && id !== "" ? id : null;
}

function isPrompt(e: RitualEvent): e is RitualEvent & { data: { remediation: boolean } } {
  return e.kind === "prompt.submitted";
}

/**
 * The sequence number the turn's window starts after: the latest human prompt,
 * walking back over consecutive remediation prompts (bounded), so signals given
 * during repair turns count together with the original turn.
 */
export function windowStart(events: readonly RitualEvent[], cutoffSeq: number): number {
  const prompts = events.filter((e) => isPrompt(e) && e.seq <= cutoffSeq);
  let i = prompts.length - 1;
  for (let hops = 0; i > 0 && hops < MAX_REMEDIATION_HOPS; hops++) {
    if (!(prompts[i]!.data as { remediation: boolean }).remediation) break;
    i--;
  }
  return i >= 0 ? prompts[i]!.seq : 0;
}

function unmetRules(window: readonly RitualEvent[], input: RitualInput): RuleId[] {
  const missing: RuleId[] = [];
  const status = window.some(
    (e) =>
      e.kind === "status.checked" &&
      (!input.requireGitFinalization || (e.data as { end_turn: boolean }).end_turn),
  );
  if (!status) missing.push("status");
  if (!window.some((e) => e.kind === "task.set")) missing.push("task");
  if (input.client.ritual.statusBox && !input.replyHasBox) missing.push("status-box");
  return missing;
}

/** Blocks already enforced in this window with nothing but stops in between. */
function consecutiveBlocks(window: readonly RitualEvent[]): number {
  let n = 0;
  for (const e of [...window].reverse()) {
    if (e.kind !== "turn.stopped") continue;
    const d = e.data as { verdict: string; enforcement: string };
    if (d.verdict !== "block" || d.enforcement !== "enforced") break;
    n++;
  }
  return n;
}

function enforcement(
  input: RitualInput,
  window: readonly RitualEvent[],
): { enforcement: Enforcement; note: string | null } {
  if (input.mode === "off") return { enforcement: "disabled", note: "agents.stopRitual is off" };
  const client = input.client;
  if (client.ritual.form === "observed")
    return { enforcement: "observe_only", note: `${client.label} Stop hooks never block` };
  if (input.mode === "observe") return { enforcement: "observe_only", note: "agents.stopRitual is observe" };
  // Most clients start another turn for each block; one that caps its own (Cursor's loop_limit) is not capped here.
  if (!client.ritual.capsItself && consecutiveBlocks(window) >= input.blockCap) {
    return {
      enforcement: "observe_only",
      note: `block cap of ${input.blockCap} reached; the turn ends with the rule unmet`,
    };
  }
  return { enforcement: "enforced", note: null };
}

export function stopVerdict(input: RitualInput): StopVerdict {
  const start = windowStart(input.events, input.cutoffSeq);
  const window = input.events.filter((e) => e.seq > start && e.seq <= input.cutoffSeq);
  if (input.sessionKind === "subagent") {
    return {
      verdict: "pass",
      rule: null,
      missing: [],
      enforcement: "disabled",
      note: "sub-agents are exempt",
    };
  }
  if (!usedTools(window)) {
    return { verdict: "pass", rule: null, missing: [], enforcement: "enforced", note: "no tool ran" };
  }
  const missing = unmetRules(window, input);
  if (missing.length === 0)
    return { verdict: "pass", rule: null, missing, enforcement: "enforced", note: null };
  return { verdict: "block", rule: missing[0]!, missing, ...enforcement(input, window) };
}
