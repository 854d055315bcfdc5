/**
 * Control flow over shell states: what state the shell is in after `a && b`,
 * `a || b`, `! a`, an `if`, or a loop, given the states its parts may end in. A
 * statement ends in one state when it succeeds and another when it fails (`test
 * -d x && cd x` leaves the directory unknown only when the test may fail).
 */
import { LOST, mergeScopes, sameScope } from "./scope.js";
import type { Scope } from "./types.js";

/** The states a statement may leave the shell in: when it succeeds, and when it fails. */
export interface Outcome {
  ok: Scope;
  fail: Scope;
}

export function same(scope: Scope): Outcome {
  return { ok: scope, fail: scope };
}

/** The state after a statement whatever its exit status (`a; b`). */
export function either(outcome: Outcome): Scope {
  return mergeScopes(outcome.ok, outcome.fail);
}

/** `x && y`: y runs when x succeeds; the whole fails when either does. */
export function andThen(x: Outcome, y: (start: Scope) => Outcome): Outcome {
  const then = y(x.ok);
  return { ok: then.ok, fail: mergeScopes(x.fail, then.fail) };
}

/** `x || y`: y runs when x fails; the whole succeeds when either does. */
export function orElse(x: Outcome, y: (start: Scope) => Outcome): Outcome {
  const other = y(x.fail);
  return { ok: mergeScopes(x.ok, other.ok), fail: other.fail };
}

export function negate(outcome: Outcome): Outcome {
  return { ok: outcome.fail, fail: outcome.ok };
}

/** `if cond; then …; else …; fi`: either branch may have run. */
export function branches(then: Outcome, other: Outcome): Outcome {
  return { ok: mergeScopes(then.ok, other.ok), fail: mergeScopes(then.fail, other.fail) };
}

/** Passes over a loop body before its state is given up as unknown. */
const MAX_LOOP_PASSES = 4;

/**
 * A loop body may run any number of times. `pass` walks it once from a start
 * state and returns every state it may end in (its end, and where `break` or
 * `continue` left it); the start then takes those in, until it no longer changes.
 * Values that change from pass to pass thus become unknown, and what the last pass
 * found holds for every pass. Returns the state after the loop.
 */
export function loop(scope: Scope, pass: (start: Scope) => Scope[]): Scope {
  let start = scope;
  for (let i = 0; i < MAX_LOOP_PASSES; i++) {
    const next = pass(start).reduce(mergeScopes, start);
    if (sameScope(next, start)) return next;
    start = next;
  }
  pass(LOST);
  return LOST;
}
