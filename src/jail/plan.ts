/**
 * The mount plan for one session, read from the store and the disk (src/core/jail/plan.ts decides
 * it): shared by `tandem jail`, `tandem run` and the pre-tool hook's rewrite.
 */
import { statSync } from "node:fs";
import { jailCandidates, type MountPlan, mountPlan } from "../core/jail/plan.js";
import { type JailAsk, jailFacts, physical } from "./facts.js";

function realOrNull(path: string): string | null {
  const real = physical(path);
  return statSync(real, { throwIfNoEntry: false }) ? real : null;
}

export function sessionPlan(ask: JailAsk): MountPlan {
  const candidates = jailCandidates(jailFacts(ask));
  const real = new Map(candidates.map((c) => [c.path, realOrNull(c.path)]));
  return mountPlan(candidates, real, ask.resolved.root);
}

/** The planned paths that are files (an owner's rename-save can replace them; src/jail/run.ts). */
export function boundFiles(plan: MountPlan): string[] {
  return plan.binds.map((b) => b.path).filter((p) => statSync(p, { throwIfNoEntry: false })?.isFile());
}
