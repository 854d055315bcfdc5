/**
 * Assignments the walker follows: `F=x`, `F+=x`, `F=a G=$F/b`, `export F=x`,
 * `declare -x F=x`, `local F`, and a command's own environment (`F=x cmd`). An
 * array, an integer or a name reference makes the variable (or every variable)
 * unknown rather than followed.
 */
import { NO_VARS, setVar } from "./scope.js";
import type { ShAssign, ShDeclClause, ShWord } from "./syntax.js";
import type { Tree } from "./tree.js";
import type { Arg, Env, Scope } from "./types.js";

/** One assignment as the parser gives it, read out of the tree. */
export interface Assignment {
  /** Null for an option word of `declare` (`-x`), whose text is in `value`. */
  name: string | null;
  value: ShWord | null;
  /** `F+=x` */
  append: boolean;
  /** `export F`: a name without a value. */
  naked: boolean;
  /** `A[0]=x`, `A=(x y)`: not followed. */
  array: boolean;
  /** The node, for the walker to run what its expansions run. */
  node: ShAssign;
}

export function readAssignments(tree: Tree, assigns: ShAssign[]): Assignment[] {
  return assigns.map((node) => {
    const name = tree.read(node, "Name");
    return {
      name: name === null ? null : tree.read(name, "Value"),
      value: tree.read(node, "Value"),
      append: tree.read(node, "Append"),
      naked: tree.read(node, "Naked"),
      array: Boolean(tree.read(node, "Index") || tree.read(node, "Array")),
      node,
    };
  });
}

export interface Declaration {
  /** export, local, declare, typeset, readonly, nameref */
  variant: string;
  args: Assignment[];
}

export function readDeclaration(tree: Tree, clause: ShDeclClause): Declaration {
  return tree.memo(clause, "declaration", () => ({
    variant: tree.read(tree.read(clause, "Variant"), "Value"),
    args: readAssignments(tree, tree.read(clause, "Args")),
  }));
}

/** How assignments read words and variables (the Expander). */
export interface ValueReader {
  value(word: ShWord | null, scope: Scope): Arg;
  lookup(scope: Scope, name: string): Arg;
}

/** The value an assignment gives its variable, null when unknown. */
function assignedValue(reader: ValueReader, assign: Assignment, scope: Scope): Arg {
  if (assign.array) return null;
  const value = reader.value(assign.value, scope);
  if (!assign.append) return value;
  const old = reader.lookup(scope, assign.name!);
  return old === null || value === null ? null : old + value;
}

/** `F=a G=$F/b` on their own: applied left to right, each seeing the ones before. */
export function applyAssigns(reader: ValueReader, assigns: Assignment[], scope: Scope): Scope {
  let next = scope;
  for (const assign of assigns) {
    if (assign.name === null) continue;
    next = { ...next, vars: setVar(next.vars, assign.name, assignedValue(reader, assign, next)) };
  }
  return next;
}

/** `F=x cmd`: the assignments only go into the command's environment, not into its words. */
export function prefixEnv(reader: ValueReader, assigns: Assignment[], scope: Scope): Env {
  const env = new Map<string, Arg>();
  let seen = scope;
  for (const assign of assigns) {
    if (assign.name === null) continue;
    const value = assignedValue(reader, assign, seen);
    env.set(assign.name, value);
    seen = { ...seen, vars: setVar(seen.vars, assign.name, value) };
  }
  return env;
}

export interface Declared {
  scope: Scope;
  /** Names declared local (`local`, or `declare` inside a function): restored when it returns. */
  locals: string[];
  /** A name reference (`declare -n R=F`): from here on any assignment may change any variable. */
  nameref: boolean;
}

/** `export`, `readonly`, `declare`, `typeset`, `local`, `nameref` with their assignments. */
export function applyDecl(reader: ValueReader, { variant, args }: Declaration, scope: Scope): Declared {
  const flags: string[] = [];
  for (const assign of args) {
    if (assign.name !== null) continue;
    const flag = reader.value(assign.value, scope);
    if (flag === null) return { scope: { ...scope, vars: NO_VARS }, locals: [], nameref: true };
    flags.push(flag);
  }
  const set = flags.filter((f) => f.startsWith("-")).join("");
  const unset = flags.filter((f) => f.startsWith("+")).join("");
  if (/[fF]/.test(set)) return { scope, locals: [], nameref: false }; // the names are functions
  if (variant === "nameref" || (variant !== "export" && set.includes("n")))
    return { scope: { ...scope, vars: NO_VARS }, locals: [], nameref: true };
  const exported =
    variant === "export"
      ? !set.includes("n")
      : set.includes("x")
        ? true
        : unset.includes("x")
          ? false
          : undefined;
  const unknownValues = variant !== "export" && /[aAilucI]/.test(set);
  let vars = scope.vars;
  const names: string[] = [];
  for (const assign of args) {
    if (assign.name === null) continue;
    const name = assign.name;
    names.push(name);
    const old = vars.get(name);
    if (!assign.naked) {
      const value = unknownValues ? null : assignedValue(reader, assign, { ...scope, vars });
      vars = setVar(vars, name, value, exported);
    } else if (variant === "export" || variant === "readonly") {
      if (old) vars = setVar(vars, name, old.value, exported);
    } else {
      vars = setVar(vars, name, null); // `local F` starts out empty
    }
  }
  const local = variant === "local" || variant === "declare" || variant === "typeset";
  return { scope: { cwd: scope.cwd, vars }, locals: local ? names : [], nameref: false };
}
