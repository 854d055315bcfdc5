/**
 * What expanding a word (or any node) does besides giving its value: the commands
 * of `$(…)`, backquotes and `<(…)` run, and some expansions assign variables
 * (`${F:=x}`, `$((i++))`, `let x=1`), which the walker must then forget.
 */
import type { ShLit, ShNode, ShParamExp, ShStmtList } from "./syntax.js";
import type { Tree } from "./tree.js";

export interface Expansions {
  /** The command substitutions, outermost only (each runs in a subshell, inner ones with it). */
  substitutions: ShStmtList[];
  /** Names an expansion may assign. */
  assigned: Set<string>;
}

/** Nodes whose arithmetic may assign any variable it names. */
const ARITHMETIC = new Set(["ArithmExp", "ArithmCmd", "LetClause", "CStyleLoop"]);

/** What expanding `node` runs and may assign (worked out once per node). */
export function expansionsIn(tree: Tree, node: ShNode): Expansions {
  return tree.memo(node, "expansions", () => {
    const found: Expansions = { substitutions: [], assigned: new Set() };
    tree.syntax.Walk(node, (child) => {
      if (child === null) return true;
      const type = tree.type(child);
      if (type === "CmdSubst" || type === "ProcSubst") {
        found.substitutions.push(child as ShStmtList);
        return false;
      }
      const param = type === "ParamExp" ? (child as ShParamExp) : null;
      const name = param && tree.read(param, "Param");
      if (param && name && tree.read(param, "Exp")) found.assigned.add(tree.read(name, "Value"));
      const arithmetic = param
        ? tree.read(param, "Index") || tree.read(param, "Slice")
        : ARITHMETIC.has(type);
      if (arithmetic) collectNames(tree, child, found.assigned);
      return true;
    });
    return found;
  });
}

/** Every name-like literal under an arithmetic node: any of them may be assigned. */
function collectNames(tree: Tree, node: ShNode, names: Set<string>): void {
  tree.syntax.Walk(node, (child) => {
    if (child !== null && tree.type(child) === "Lit") {
      for (const match of tree.read(child as ShLit, "Value").matchAll(/[A-Za-z_]\w*/g)) names.add(match[0]);
    }
    return true;
  });
}
