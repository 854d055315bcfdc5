import {
  applyEdits,
  type Edit,
  findNodeAtLocation,
  type Node,
  type ParseError,
  parse,
  parseTree,
  printParseErrorCode,
  visit,
} from "jsonc-parser";

/**
 * Minimal, style-preserving edits of JSON(C) text. jsonc-parser's `modify` re-formats every line an
 * edit touches (a compact foreign entry next to ours would be re-indented) and, unformatted, it
 * drops the wrong characters when removing a last array item; so the edits are built here from
 * parse-tree offsets and only `applyEdits` is borrowed. Everything outside an edit stays byte-exact.
 */

export type JsonPath = (string | number)[];

export type JsonOp =
  /** Remove the property or array item at path (a missing one is a no-op). */
  | { op: "remove"; path: JsonPath }
  /** Replace the value at path, or add the property (and missing parent objects). */
  | { op: "set"; path: JsonPath; value: unknown }
  /** Push onto the array at path, creating it when missing. */
  | { op: "append"; path: JsonPath; value: unknown };

export type Parsed = { ok: true; value: unknown } | { ok: false; reason: string };

function lineCol(text: string, offset: number): string {
  const before = text.slice(0, offset);
  return `${before.split("\n").length}:${offset - before.lastIndexOf("\n")}`;
}

/** JSON with comments and trailing commas; the first syntax error is reported as `file:line:col`. */
export function parseJson(display: string, text: string): Parsed {
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  const first = errors[0];
  if (!first) return { ok: true, value };
  const where = `${display}:${lineCol(text, first.offset)}`;
  return { ok: false, reason: `${where}: ${printParseErrorCode(first.error)}` };
}

export function hasComments(text: string): boolean {
  let found = false;
  visit(
    text,
    {
      onComment: () => {
        found = true;
      },
    },
    { allowTrailingComma: true },
  );
  return found;
}

interface Style {
  eol: string;
  unit: string;
}

function styleOf(text: string): Style {
  const indented = /^([ \t]+)\S/m.exec(text);
  return { eol: text.includes("\r\n") ? "\r\n" : "\n", unit: indented?.[1] ?? "  " };
}

function lineStart(text: string, pos: number): number {
  return text.lastIndexOf("\n", pos - 1) + 1;
}

/** True when only whitespace precedes `pos` on its line. */
function ownsLine(text: string, pos: number): boolean {
  return /^[ \t]*$/.test(text.slice(lineStart(text, pos), pos));
}

/** The offset of the next character that is neither whitespace nor inside a comment. */
function nextSignificant(text: string, pos: number): number {
  let i = pos;
  for (;;) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (text.startsWith("//", i)) i = text.indexOf("\n", i) === -1 ? text.length : text.indexOf("\n", i);
    else if (text.startsWith("/*", i))
      i = text.indexOf("*/", i) === -1 ? text.length : text.indexOf("*/", i) + 2;
    else return i;
  }
}

/** Longest value kept on one line in a one-line context; longer ones are laid out over lines. */
const INLINE_MAX = 80;

function render(value: unknown, indent: string, pretty: boolean, style: Style): string {
  // One line with the spacing people write by hand: `{ "a": [ 1 ] }`. JSON.stringify escapes
  // newlines inside strings, so every newline it emits is layout and safe to fold.
  if (!pretty) {
    const flat = JSON.stringify(value, null, 1).replace(/\n\s*/g, " ");
    if (flat.length <= INLINE_MAX) return flat;
  }
  return JSON.stringify(value, null, style.unit).replaceAll("\n", style.eol + indent);
}

const end = (n: Node): number => n.offset + n.length;

/** The property node for an object member, the node itself for an array item. */
function memberOf(node: Node): Node {
  return node.parent?.type === "property" ? node.parent : node;
}

function removeEdit(text: string, target: Node): Edit {
  const container = target.parent!;
  const siblings = container.children!;
  const idx = siblings.indexOf(target);
  if (siblings.length === 1) {
    return { offset: container.offset + 1, length: container.length - 2, content: "" };
  }
  const next = siblings[idx + 1];
  if (next) {
    // Whole lines when both members own theirs, so no blank line or stray indent is left behind.
    const lines = ownsLine(text, target.offset) && ownsLine(text, next.offset);
    const from = lines ? lineStart(text, target.offset) : target.offset;
    const to = lines ? lineStart(text, next.offset) : next.offset;
    return { offset: from, length: to - from, content: "" };
  }
  const comma = nextSignificant(text, end(siblings[idx - 1]!));
  return { offset: comma, length: end(target) - comma, content: "" };
}

/** `item(indent, pretty)` renders the new member for its position. */
function insertEdit(
  text: string,
  container: Node,
  item: (indent: string, pretty: boolean) => string,
  style: Style,
): Edit {
  const last = container.children?.at(-1);
  if (!last) {
    const outer = /^[ \t]*/.exec(text.slice(lineStart(text, container.offset)))![0];
    const inner = text.slice(container.offset + 1, end(container) - 1);
    const blank = /^\s*$/.test(inner);
    const content = `${style.eol}${outer}${style.unit}${item(outer + style.unit, true)}${blank ? style.eol + outer : ""}`;
    return { offset: container.offset + 1, length: blank ? inner.length : 0, content };
  }
  const after = nextSignificant(text, end(last));
  const trailingComma = text[after] === ",";
  const at = trailingComma ? after + 1 : end(last);
  const lead = trailingComma ? "" : ",";
  const tail = trailingComma ? "," : "";
  if (ownsLine(text, last.offset)) {
    const indent = /^[ \t]*/.exec(text.slice(lineStart(text, last.offset)))![0];
    return { offset: at, length: 0, content: `${lead}${style.eol}${indent}${item(indent, true)}${tail}` };
  }
  const indent = /^[ \t]*/.exec(text.slice(lineStart(text, last.offset)))![0];
  return { offset: at, length: 0, content: `${lead} ${item(indent, false)}${tail}` };
}

function setEdit(text: string, tree: Node, path: JsonPath, value: unknown, style: Style): Edit {
  const existing = findNodeAtLocation(tree, path);
  if (existing) {
    const pretty = text.slice(existing.offset, end(existing)).includes("\n");
    const indent = /^[ \t]*/.exec(text.slice(lineStart(text, existing.offset)))![0];
    return {
      offset: existing.offset,
      length: existing.length,
      content: render(value, indent, pretty, style),
    };
  }
  // Climb to the nearest existing object, wrapping the value in the objects that are missing.
  let wrapped = value;
  let parentPath = path;
  for (;;) {
    const key = parentPath.at(-1);
    parentPath = parentPath.slice(0, -1);
    const parent = parentPath.length === 0 ? tree : findNodeAtLocation(tree, parentPath);
    if (parent?.type === "object" && typeof key === "string") {
      const member = (indent: string, pretty: boolean) =>
        `${JSON.stringify(key)}: ${render(wrapped, indent, pretty, style)}`;
      return insertEdit(text, parent, member, style);
    }
    if (parent || typeof key !== "string")
      throw new Error(`cannot set ${path.join(".")}: parent is not an object`);
    wrapped = { [key]: wrapped };
  }
}

function editFor(text: string, op: JsonOp, style: Style): Edit | null {
  const tree = parseTree(text, [], { allowTrailingComma: true });
  if (!tree) throw new Error("cannot edit an empty document");
  if (op.op === "remove") {
    const node = findNodeAtLocation(tree, op.path);
    return node ? removeEdit(text, memberOf(node)) : null;
  }
  if (op.op === "set") return setEdit(text, tree, op.path, op.value, style);
  const array = findNodeAtLocation(tree, op.path);
  if (!array) return setEdit(text, tree, op.path, [op.value], style);
  if (array.type !== "array") throw new Error(`cannot append to ${op.path.join(".")}: not an array`);
  return insertEdit(text, array, (indent, pretty) => render(op.value, indent, pretty, style), style);
}

/** Applies the operations in order, each against the text the previous one produced. */
export function applyJsonOps(text: string, ops: readonly JsonOp[]): string {
  const style = styleOf(text);
  let out = text;
  for (const op of ops) {
    const edit = editFor(out, op, style);
    if (edit) out = applyEdits(out, [edit]);
  }
  return out;
}
