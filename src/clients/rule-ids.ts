/**
 * Every rule a hook's verdict can name: a closed list, so a new refusal is a new id here and an
 * entry in the catalog of texts (src/core/rules/catalog.ts), which the compiler holds to this list.
 * It sits beside the Verdict type because the client specs render verdicts and sit below core/.
 */
export const RULE_IDS = [
  // pre-tool gates (src/hooks/gates/)
  "hook-call",
  "identity",
  "tandem-refs",
  "tandem-state",
  "other-worktree",
  "git-impact",
  "remote-claim",
  "left-work",
  "claim-conflict",
  "line-conflict",
  "protected-wiring",
  // after every gate, under `guard: "kernel"` (src/hooks/jail-rewrite.ts)
  "kernel-guard",
  // the handler's answers when a hook cannot decide (src/hooks/handler.ts, src/hooks/once.ts)
  "forged-hook",
  "store-busy",
  "store-unavailable",
  "disk-full",
  "internal-error",
  "server-interrupted",
  // the end-of-turn ritual (src/core/ritual/verdict.ts)
  "status",
  "task",
  "status-box",
] as const;

export type VerdictRule = (typeof RULE_IDS)[number];
