import { describeWiring, type WiringChange } from "../../core/guards/wiring.js";
import { spanned } from "../../core/printed.js";
import type { Uncaptured } from "../capture/capture.js";
import { short } from "../shared/ids.js";
import { type ChildStateFacts, childStateGate } from "./capture-gate.js";
import { outsidePrefixes, overlapping } from "./path-policy.js";

/** Checks that hold for every apply, fresh or resumed, before anything changes. */
export interface GateFacts {
  running: boolean;
  artifactError: string | null;
  uncaptured: Uncaptured[];
  /** `--acknowledge-uncaptured` given now, or recorded earlier for this capture and target. */
  ackUncaptured: boolean;
  /** Every path the commit series and the uncommitted patch touch. */
  touched: readonly string[];
  only: readonly string[] | null;
  worktree: string;
  /** Touched paths that are Tandem's wiring (hooks settings, git hooks, project config). */
  wiring: readonly WiringChange[];
  /** `--allow-config`: a person accepts the artifact's changes to the wiring. */
  allowConfig: boolean;
  /** The sub-agent, for the commands a message suggests. */
  subId: string;
  /** An operation the child stopped in, conflict markers in its patch, and what the user allowed. */
  child: ChildStateFacts;
}

/** Facts about the target for a fresh apply (docs/product.md §7.3 preflight). */
export interface PreflightFacts extends GateFacts {
  head: string | null;
  expectedHead: string | null;
  /** The commit the target must contain: the artifact's base, or what an earlier apply left. */
  anchor: string;
  anchorIsAncestor: boolean;
  operation: string | null;
  hasCommits: boolean;
  staged: readonly string[];
  dirty: readonly string[];
}

export type Verdict = { ok: true; warnings: string[] } | { ok: false; reason: string; paths: string[] };

const list = (paths: readonly string[]): string =>
  paths.length > 8 ? `${paths.slice(0, 8).join(", ")} and ${paths.length - 8} more` : paths.join(", ");

export function describeUncaptured(u: readonly Uncaptured[]): string {
  return u.map((x) => (x.paths.length ? `${x.reason}: ${list(x.paths)}` : x.reason)).join("; ");
}

const refuse = (reason: string, paths: string[] = []): Verdict => ({ ok: false, reason, paths });

/**
 * A sub-agent must not switch coordination off by changing its wiring: those changes land only
 * when a person passes --allow-config, and are named either way.
 */
function wiringGate(f: GateFacts, warnings: string[]): Verdict | null {
  if (f.wiring.length === 0) return null;
  const files = describeWiring(f.wiring);
  if (f.allowConfig) {
    warnings.push(`this artifact changes Tandem's wiring, accepted with --allow-config: ${files}.`);
    return null;
  }
  return refuse(
    `the artifact changes Tandem's wiring: ${files}. Such changes can switch coordination off, so apply refuses them without --allow-config: review them (${spanned(f.child.printer, "sub", "show", f.subId)}, or git diff in ${f.worktree}), and if a person accepts them, run apply again with --allow-config; nothing was applied.`,
    f.wiring.map((w) => w.path),
  );
}

export function gates(f: GateFacts): Verdict {
  if (f.running) return refuse("the child is still running; wait for it to end (or stop it), then apply.");
  if (f.artifactError) return refuse(`cannot apply: ${f.artifactError}.`);
  const warnings: string[] = [];
  const half = childStateGate(f.child, warnings);
  if (half) return refuse(half.reason, half.paths);
  const wiring = wiringGate(f, warnings);
  if (wiring) return wiring;
  if (f.uncaptured.length > 0) {
    const what = describeUncaptured(f.uncaptured);
    if (!f.ackUncaptured) {
      return refuse(
        `the capture did not hold all of the child's work (${what}); it is still only in ${f.worktree}. Capture again once that is fixed, or pass --acknowledge-uncaptured to apply the rest without it.`,
        f.uncaptured.flatMap((u) => u.paths),
      );
    }
    warnings.push(
      `applying without work that was not captured (${what}); it is still only in ${f.worktree}.`,
    );
  }
  if (f.only) {
    const outside = outsidePrefixes(f.touched, f.only);
    if (outside.length > 0) {
      return refuse(
        `the artifact touches paths outside --only ${f.only.join(" ")}: ${list(outside)}; nothing was applied.`,
        outside,
      );
    }
  }
  return { ok: true, warnings };
}

/** The preflight verdict for a fresh apply; pure, so every refusal is table-tested. */
export function preflight(f: PreflightFacts): Verdict {
  const gate = gates(f);
  if (!gate.ok) return gate;
  if (f.head === null) return refuse("the target has no commit yet; commit something first.");
  if (f.operation) {
    return refuse(`a git ${f.operation} is in progress in the target; finish or abort it first.`);
  }
  if (f.expectedHead !== null && f.expectedHead !== f.head) {
    return refuse(
      `the target's HEAD is ${short(f.head)}, not --expected-head ${short(f.expectedHead)}; nothing was applied.`,
    );
  }
  if (!f.anchorIsAncestor) {
    return refuse(
      `the artifact's base ${short(f.anchor)} is not an ancestor of the target's HEAD ${short(f.head)}; merge or rebase the target onto it, or apply into another target.`,
    );
  }
  if (f.hasCommits && f.staged.length > 0) {
    return refuse(
      `the target has staged changes (${list(f.staged)}) and \`git am\` needs a clean index; commit, unstage or stash them first.`,
      [...f.staged],
    );
  }
  const collide = overlapping(f.touched, f.dirty);
  if (collide.length > 0) {
    return refuse(
      `the target has uncommitted changes in paths the artifact touches: ${list(collide)}; commit or stash them first.`,
      collide,
    );
  }
  return gate;
}
