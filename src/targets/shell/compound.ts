/**
 * Compound commands: `if`, `case`, `while` / `until`, `for`. Each part is walked
 * through the statement walker, and the states its paths end in are combined by
 * flow.ts: a branch may or may not run, a loop body any number of times.
 */
import { branches, either, loop, type Outcome, same } from "./flow.js";
import { forgetVars, mergeScopes, setVar } from "./scope.js";
import type {
  ShCaseClause,
  ShForClause,
  ShIfClause,
  ShNode,
  ShStmt,
  ShWhileClause,
  ShWord,
  ShWordIter,
} from "./syntax.js";
import type { Tree } from "./tree.js";
import type { Arg, Scope } from "./types.js";

/** `for x in …` with more items than this walks its body once, with x unknown. */
const MAX_ITEMS = 32;

/** What the compound commands need of the statement walker. */
export interface StatementWalker {
  readonly tree: Tree;
  walkStmts(stmts: ShStmt[], scope: Scope): Outcome;
  /** Runs what expanding a word runs, and forgets what it may assign. */
  walkWord(word: ShWord, scope: Scope): Scope;
  walkExpansions(node: ShNode, scope: Scope): Scope;
  /** The arguments a word expands to. */
  fields(word: ShWord, scope: Scope): Arg[];
  /** Runs `pass`, returning where it ended and where `break` / `continue` left it. */
  withExits(pass: () => Scope[]): Scope[];
}

export function walkIf(w: StatementWalker, clause: ShIfClause, scope: Scope): Outcome {
  const condition = w.tree.read(clause, "Cond");
  const then = w.tree.read(clause, "Then");
  // A plain `else` is an IfClause without a condition: its body always runs.
  if (condition.length === 0) return w.walkStmts(then, scope);
  const cond = w.walkStmts(condition, scope);
  const other = w.tree.read(clause, "Else");
  return branches(w.walkStmts(then, cond.ok), other ? walkIf(w, other, cond.fail) : same(cond.fail));
}

export function walkCase(w: StatementWalker, clause: ShCaseClause, scope: Scope): Outcome {
  let start = w.walkWord(w.tree.read(clause, "Word"), scope);
  let end = start; // no pattern matched
  for (const item of w.tree.read(clause, "Items")) {
    for (const pattern of w.tree.read(item, "Patterns")) start = w.walkWord(pattern, start);
    end = mergeScopes(end, either(w.walkStmts(w.tree.read(item, "Stmts"), start)));
  }
  return same(end);
}

export function walkWhile(w: StatementWalker, clause: ShWhileClause, scope: Scope): Outcome {
  const condition = w.tree.read(clause, "Cond");
  const body = w.tree.read(clause, "Do");
  return walkLoop(w, scope, (start) => {
    const cond = either(w.walkStmts(condition, start));
    return [cond, either(w.walkStmts(body, cond))];
  });
}

export function walkFor(w: StatementWalker, clause: ShForClause, scope: Scope): Outcome {
  const { tree } = w;
  const head = tree.read(clause, "Loop");
  const body = tree.read(clause, "Do");
  if (tree.type(head) !== "WordIter") {
    const start = w.walkExpansions(head, scope); // for ((…)): the names in it become unknown
    return walkLoop(w, start, (s) => [either(w.walkStmts(body, s))]);
  }
  const iter = head as ShWordIter;
  const words = tree.read(iter, "Items");
  let start = scope;
  for (const word of words) start = w.walkWord(word, start);
  // Without `in`, the loop runs over "$@".
  const hasIn = tree.read(iter, "InPos").Offset() > 0;
  const items = hasIn ? words.flatMap((word) => w.fields(word, start)) : [null];
  if (items.length === 0) return same(start);
  // Each item is walked in turn, so `for f in a b; do rm "$f"; done` names a and b.
  const values = items.length > MAX_ITEMS || items.includes(null) ? [null] : items;
  const name = tree.read(tree.read(iter, "Name"), "Value");
  // The variable changes every pass: unknown from the start, so the loop settles in one pass.
  start = { ...start, vars: forgetVars(start.vars, [name]) };
  return walkLoop(w, start, (s) =>
    values.map((value) => either(w.walkStmts(body, { ...s, vars: setVar(s.vars, name, value) }))),
  );
}

function walkLoop(w: StatementWalker, scope: Scope, pass: (start: Scope) => Scope[]): Outcome {
  return same(loop(scope, (start) => w.withExits(() => pass(start))));
}
