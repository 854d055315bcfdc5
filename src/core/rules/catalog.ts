/**
 * The catalog of rules a verdict can name (docs/architecture.md "The path of one hook"): for each
 * id of src/clients/rule-ids.ts, the text the model reads and where the rule is documented. The
 * mapped type holds it to the closed list: a rule without an entry, or an entry without a rule,
 * does not compile. `refusal` is the one way a hook builds a refusing verdict.
 */
import type { VerdictRule } from "../../clients/rule-ids.js";
import type { Verdict } from "../../clients/types.js";
import type { ClaimDecision, Conflict } from "../claims/decide.js";
import { type LeftItem, leftRefusal } from "../claims/left-work.js";
import type { LineRefusal } from "../claims/line-claim.js";
import { denialMessage, lineDenialMessage } from "../claims/messages.js";
import { forgeryMessage } from "../guards/forgery.js";
import { type GitGuardFinding, gitGuardMessage } from "../guards/git-guard.js";
import { identityShellMessage } from "../guards/identity-shell.js";
import { refsMessage } from "../guards/tandem-refs.js";
import { stateMessage } from "../guards/tandem-state.js";
import { type WorktreeFinding, worktreeMessage } from "../guards/worktree-peers.js";
import { kernelGuardMessage } from "../jail/rewrite.js";
import type { Printer } from "../printed.js";
import type { RemoteHolder } from "../remote/holders.js";
import { remoteRefusalMessage } from "../remote/verdict.js";
import { cursorFollowup, remediationText } from "../ritual/messages.js";
import type { RuleId as RitualRule } from "../ritual/verdict.js";
import {
  diskFullMessage,
  hookCallMessage,
  internalErrorMessage,
  SERVER_INTERRUPTED_MESSAGE,
  storeBusyMessage,
  storeUnavailableMessage,
} from "./texts.js";

type Denied = Extract<ClaimDecision, { allow: false }>;

/** A blocked end of turn: every unmet rule, and whether the client submits it as a new prompt. */
export interface RitualFacts {
  missing: readonly RitualRule[];
  requireGitFinalization: boolean;
  agentCmd: string;
  /** The client submits the reason as its next prompt and needs the marker line (RitualStyle). */
  marked: boolean;
}

function ritualText(f: RitualFacts): string {
  return f.marked
    ? cursorFollowup(f.missing, f.requireGitFinalization, f.agentCmd)
    : remediationText(f.missing, f.requireGitFinalization, f.agentCmd);
}

interface Entry<I> {
  /** Where a maintainer reads why the rule exists: a doc and its section, or a decision record. */
  doc: string;
  message: (input: I) => string;
}

const entry = <I>(doc: string, message: (input: I) => string): Entry<I> => ({ doc, message });

export const RULES = {
  "hook-call": entry("docs/product.md §12", (f: { agentCmd: string }) => hookCallMessage(f.agentCmd)),
  identity: entry(
    "docs/decisions/0021-identity-follows-the-process.md",
    (f: { variable: string; claimed: string }) => identityShellMessage(f.variable, f.claimed),
  ),
  "tandem-refs": entry(
    "docs/decisions/0023-protected-paths.md",
    (f: { pushes: readonly string[]; printer: Printer }) => refsMessage(f.pushes, f.printer),
  ),
  "tandem-state": entry(
    "docs/decisions/0023-protected-paths.md",
    (f: { refused: Parameters<typeof stateMessage>[0]; agentCmd: string }) =>
      stateMessage(f.refused, f.agentCmd),
  ),
  "other-worktree": entry(
    "docs/decisions/0023-protected-paths.md",
    (f: { findings: readonly WorktreeFinding[]; now: number }) => worktreeMessage(f.findings, f.now),
  ),
  "git-impact": entry(
    "docs/decisions/0009-destructive-commands.md",
    (f: { findings: readonly GitGuardFinding[]; now: number }) => gitGuardMessage(f.findings, f.now),
  ),
  "remote-claim": entry(
    "docs/decisions/0014-presence-over-git-remote.md",
    (f: { holders: readonly RemoteHolder[]; now: number; printer: Printer }) =>
      remoteRefusalMessage(f.holders, f.now, f.printer),
  ),
  "left-work": entry(
    "docs/product.md §4.6",
    (f: { items: readonly LeftItem[]; now: number; printer: Printer }) =>
      leftRefusal(f.items, f.now, f.printer),
  ),
  "claim-conflict": entry("docs/product.md §4.3", (f: { decision: Denied; now: number }) =>
    denialMessage(f.decision, f.now),
  ),
  "line-conflict": entry(
    "docs/decisions/0061-line-claims.md",
    (f: { lines: readonly LineRefusal[]; held: readonly Conflict[]; now: number }) =>
      lineDenialMessage(f.lines, f.held, f.now),
  ),

  "protected-wiring": entry(
    "docs/decisions/0024-the-wiring-heals.md",
    (f: { decision: Denied; now: number }) => denialMessage(f.decision, f.now),
  ),
  "kernel-guard": entry("docs/decisions/0056-hook-jail.md", (f: { detail: string; fix: string }) =>
    kernelGuardMessage(f),
  ),
  "forged-hook": entry(
    "docs/product.md §12",
    (f: { named: string; by: string; printer: Printer }) =>
      `Tandem refused: ${forgeryMessage(f.named, f.by, f.printer)}`,
  ),
  "store-busy": entry("docs/product.md §9", (f: { detail: string }) => storeBusyMessage(f.detail)),
  "store-unavailable": entry("docs/product.md §9", (f: { detail: string; doctor: string }) =>
    storeUnavailableMessage(f.detail, f.doctor),
  ),
  "disk-full": entry("docs/decisions/0065-retention-policy.md", (f: { detail: string; gc: string }) =>
    diskFullMessage(f.detail, f.gc),
  ),
  "internal-error": entry("docs/product.md §9", (f: { failure: string; doctor: string }) =>
    internalErrorMessage(f.failure, f.doctor),
  ),
  "server-interrupted": entry("docs/server.md §4", (_: Record<string, never>) => SERVER_INTERRUPTED_MESSAGE),
  status: entry("docs/product.md §6.2", ritualText),
  task: entry("docs/product.md §6.2", ritualText),
  "status-box": entry("docs/product.md §6.2", ritualText),
} satisfies { [R in VerdictRule]: Entry<never> };

/** What a rule's text is built from. */
export type RuleInput<R extends VerdictRule> = Parameters<(typeof RULES)[R]["message"]>[0];

/** The text of `rule` over its facts. */
export function ruleText<R extends VerdictRule>(rule: R, input: RuleInput<R>): string {
  return (RULES[rule].message as (i: RuleInput<R>) => string)(input);
}

/** A refusing verdict: the rule and its catalogued text. */
export function refusal<R extends VerdictRule>(
  rule: R,
  input: RuleInput<R>,
): Verdict & { allow: false; rule: R; reason: string } {
  return { allow: false, rule, reason: ruleText(rule, input) };
}

/** The ids a set of rules names that the catalog lacks (empty when every one has an entry). */
export function uncatalogued(
  rules: readonly string[],
  catalog: Readonly<Record<string, unknown>> = RULES,
): string[] {
  return rules.filter((r) => !Object.hasOwn(catalog, r));
}
