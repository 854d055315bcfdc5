/**
 * The slice of mvdan-sh's (GopherJS) API and syntax tree that we read. The package
 * ships no types; field names follow mvdan.cc/sh/v3/syntax. Only the modules that
 * walk the tree (load, words, redirects, walk) see these shapes; the command
 * handlers get plain argument strings.
 */

export interface ShNode {
  readonly __shNode?: never;
}
export interface ShFile extends ShNode {
  Stmts: ShStmt[];
}
export interface ShStmt extends ShNode {
  Cmd: ShNode | null;
  Redirs: ShRedirect[];
  Background: boolean;
  Coprocess: boolean;
  /** `! cmd` */
  Negated: boolean;
}
export interface ShRedirect extends ShNode {
  Op: number;
  Word: ShWord | null;
  Hdoc: ShWord | null;
}
export interface ShWord extends ShNode {
  Parts: ShNode[];
}
export interface ShLit extends ShNode {
  Value: string;
}
export interface ShSglQuoted extends ShNode {
  Dollar: boolean;
  Value: string;
}
export interface ShDblQuoted extends ShNode {
  Parts: ShNode[];
}
export interface ShCallExpr extends ShNode {
  Assigns: ShAssign[];
  Args: ShWord[];
}
export interface ShAssign extends ShNode {
  /** `F+=x` */
  Append: boolean;
  /** `export F` (a name only), or an option word of `declare -x` (no name). */
  Naked: boolean;
  Name: ShLit | null;
  Value: ShWord | null;
  Index: ShNode | null;
  Array: ShNode | null;
}
export interface ShDeclClause extends ShNode {
  /** export, local, declare, typeset, readonly, nameref */
  Variant: ShLit;
  Args: ShAssign[];
}
export interface ShParamExp extends ShNode {
  Param: ShLit | null;
  Excl: boolean;
  Length: boolean;
  Width: boolean;
  Index: ShNode | null;
  Slice: ShNode | null;
  Repl: ShNode | null;
  Exp: ShNode | null;
  Names: number;
}
export interface ShBinaryCmd extends ShNode {
  Op: number;
  X: ShStmt;
  Y: ShStmt;
}
export interface ShStmtList extends ShNode {
  Stmts: ShStmt[];
}
export interface ShIfClause extends ShNode {
  Cond: ShStmt[];
  Then: ShStmt[];
  Else: ShIfClause | null;
}
export interface ShWhileClause extends ShNode {
  Cond: ShStmt[];
  Do: ShStmt[];
}
export interface ShForClause extends ShNode {
  /** A WordIter (`for x in …`) or a CStyleLoop (`for ((…))`). */
  Loop: ShNode;
  Do: ShStmt[];
}
export interface ShWordIter extends ShNode {
  Name: ShLit;
  /** Where `in` is: offset 0 when there is none (`for x; do` runs over "$@"). */
  InPos: { Offset(): number };
  Items: ShWord[];
}
export interface ShCaseClause extends ShNode {
  Word: ShWord;
  Items: ShCaseItem[];
}
export interface ShCaseItem extends ShNode {
  Patterns: ShWord[];
  Stmts: ShStmt[];
}
export interface ShFuncDecl extends ShNode {
  Name: ShLit;
  Body: ShStmt;
}
export interface ShInnerStmt extends ShNode {
  Stmt: ShStmt | null;
}
export interface ShSyntax {
  NewParser(): { Parse(src: string, name: string): ShFile };
  NodeType(node: ShNode): string;
  Walk(node: ShNode, visit: (node: ShNode | null) => boolean): void;
}
