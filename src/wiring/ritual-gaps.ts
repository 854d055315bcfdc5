import { codexLocalRulesText, codexRulesText } from "../clients/codex/rules.js";
import type { ClientName } from "../clients/index.js";

/**
 * Where the end-of-turn ritual would still fail or prompt after init (decision 0030), as one
 * sentence each with what to do. Pure: the rules init writes are derived from the same launcher
 * and agent command, so a gap is a command no rule can name.
 */
export function ritualGaps(launcher: string, agent: string, clients: readonly ClientName[]): string[] {
  const gaps: string[] = [];
  const fix =
    "re-run `tandem init --command tandem` (or another launcher of plain words) from an install on PATH";
  if (clients.includes("codex")) {
    const committed = agent.trim() === launcher.trim() && codexRulesText(launcher) !== null;
    if (!committed && codexLocalRulesText(launcher, agent) === null)
      gaps.push(
        `no Codex rule can name \`${agent}\` (a prefix_rule matches plain words exactly), so in Codex's default workspace-write sandbox, where .git is read-only, the ritual fails every turn; ${fix}`,
      );
  }
  if (clients.includes("claude-code") && /\$\(|`/.test(agent))
    gaps.push(
      `Claude Code never auto-allows a command with \`$(…)\` or backquotes, so \`${agent}\` asks for approval every turn; ${fix}`,
    );
  return gaps;
}
