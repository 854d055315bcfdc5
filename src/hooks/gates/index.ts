/**
 * The pre-tool gates, listed once (docs/architecture.md "The path of one hook"). A new gate is a
 * file beside these (./gate.ts says what it declares) and one line here; its rules need entries in
 * src/clients/rule-ids.ts and src/core/rules/catalog.ts, which test/hooks/gates.test.ts checks.
 */
import claims from "./claims.js";
import type { Gate } from "./gate.js";
import gitImpact from "./git-impact.js";
import hookCall from "./hook-call.js";
import identity from "./identity.js";
import leftWork from "./left-work.js";
import otherWorktree from "./other-worktree.js";
import remoteClaim from "./remote-claim.js";
import tandemRefs from "./tandem-refs.js";
import tandemState from "./tandem-state.js";

export const GATES: readonly Gate[] = [
  hookCall,
  identity,
  tandemRefs,
  tandemState,
  otherWorktree,
  gitImpact,
  remoteClaim,
  leftWork,
  claims,
].sort((a, b) => a.order - b.order);
