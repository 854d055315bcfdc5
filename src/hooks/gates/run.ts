/** Runs the gates in order: the first refusal is recorded (unless its gate did) and answers the call. */
import type { Verdict } from "../../clients/types.js";
import type { HookCtx } from "../context.js";
import type { Gate, PreToolFacts } from "./gate.js";
import { GATES } from "./index.js";
import { recordRefusal } from "./record.js";

export async function runGates(
  ctx: HookCtx,
  facts: PreToolFacts,
  gates: readonly Gate[] = GATES,
): Promise<Verdict | null> {
  for (const gate of gates) {
    const refused = await gate.run(ctx, facts);
    if (!refused) continue;
    if (refused.refused) recordRefusal(ctx, facts.tool, facts.found.raws, refused.refused);
    return refused.verdict;
  }
  return null;
}
