import { findNodeAtLocation, getNodeValue, type Node, type ParseError, parseTree } from "jsonc-parser";
import type * as z from "zod/mini";
import { closest, suggestKey } from "./did-you-mean.js";
import { isBlank, keyOffset, keyPath, lineCol, preview, syntaxWords } from "./json-text.js";
import type { ConfigProblem } from "./problems.js";
import { ALLOWED, type ConfigFile, configFileSchema } from "./schema.js";

/**
 * Reads a config file's text key by key: every key that is known, readable and valid is kept;
 * everything else is left out (so it falls back) and becomes a ConfigProblem. Never throws.
 */

type Schema = z.ZodMiniType;
interface Def {
  type: string;
  innerType?: Schema;
  shape?: Record<string, Schema>;
  keyType?: Schema;
  valueType?: Schema;
  entries?: Record<string, string>;
}
const defOf = (s: Schema): Def => (s as unknown as { def: Def }).def;

function unwrap(s: Schema): Schema {
  let inner = s;
  while (defOf(inner).type === "optional") inner = defOf(inner).innerType!;
  return inner;
}

/** The keys of an object level; a record keyed by an enum (the clients) is one too. */
interface Level {
  fields: Record<string, Schema>;
  record: boolean;
}

function levelOf(s: Schema): Level | null {
  const d = defOf(s);
  if (d.type === "object") return { fields: d.shape!, record: false };
  const keys = d.type === "record" ? defOf(d.keyType!) : null;
  if (keys?.type !== "enum") return null;
  return {
    fields: Object.fromEntries(Object.keys(keys.entries!).map((k) => [k, d.valueType!])),
    record: true,
  };
}

const quoted = (keys: readonly string[]) =>
  keys.length < 2
    ? `"${keys[0] ?? ""}"`
    : `${keys
        .slice(0, -1)
        .map((k) => `"${k}"`)
        .join(", ")} and "${keys.at(-1)}"`;

let known: string[] | undefined;

/** Every key path the schema knows (object keys and client names; list items are values). */
function knownPaths(): string[] {
  const walk = (s: Schema, prefix: string): string[] => {
    const level = levelOf(unwrap(s));
    if (!level) return [];
    return Object.entries(level.fields).flatMap(([k, v]) => {
      const path = prefix ? `${prefix}.${k}` : k;
      return [path, ...walk(v, path)];
    });
  };
  known ??= walk(configFileSchema(), "");
  return known;
}

interface Walk {
  text: string;
  file: string;
  errors: readonly ParseError[];
  /** Errors already told as one key's unreadable value. */
  used: Set<ParseError>;
  problems: ConfigProblem[];
}

type Segment = string | number;

function problemAt(
  w: Walk,
  offset: number,
  p: Omit<ConfigProblem, "source" | "line" | "column">,
): ConfigProblem {
  return { source: w.file, ...lineCol(w.text, offset), ...p };
}

function unknownKey(w: Walk, keyNode: Node, path: readonly string[], level: Level): ConfigProblem {
  const name = path.at(-1)!;
  return problemAt(w, keyNode.offset, {
    kind: "unknown-key",
    key: path.join("."),
    problem: "is not a key Tandem knows",
    allowed: quoted(Object.keys(level.fields)),
    didYouMean: suggestKey(name, path.slice(0, -1).join("."), knownPaths()),
    using: null,
  });
}

/** What a value must be, from the most specific description there is. */
function allowedFor(pattern: readonly string[], schema: Schema | null): string {
  for (let n = pattern.length; n > 0; n--) {
    const text = ALLOWED[keyPath(pattern.slice(0, n))];
    if (text) return text;
    const level = n === pattern.length && schema ? levelOf(schema) : null;
    if (level) return `an object with the keys ${quoted(Object.keys(level.fields))}`;
  }
  return "valid";
}

/** The node deepest along `path` under `node`, and how far along it lies. */
function deepest(node: Node, path: readonly Segment[]): { node: Node; depth: number } {
  for (let n = path.length; n > 0; n--) {
    const found = findNodeAtLocation(node, path.slice(0, n) as Segment[]);
    if (found) return { node: found, depth: n };
  }
  return { node, depth: 0 };
}

interface At {
  keyNode: Node;
  valueNode: Node;
  path: readonly string[];
  pattern: readonly string[];
}

/** A value the schema refuses: named by its full path, placed at its own key. */
function valueProblem(
  w: Walk,
  at: At,
  schema: Schema,
  issue: z.core.$ZodIssue,
  value: unknown,
): ConfigProblem {
  const inside = issue.path.filter((s): s is Segment => typeof s !== "symbol");
  const extra = issue.code === "unrecognized_keys" ? issue.keys[0] : undefined;
  const target = extra === undefined ? inside : [...inside, extra];
  const found = deepest(at.valueNode, target);
  const offset = found.depth === 0 ? at.keyNode.offset : keyOffset(found.node);
  const shown =
    found.depth === inside.length ? (inside.length ? getNodeValue(found.node) : value) : undefined;
  const pattern = [...at.pattern, ...inside.map((s) => (typeof s === "number" ? "[]" : s))];
  return problemAt(w, offset, {
    kind: "bad-value",
    key: keyPath([...at.path, ...inside]),
    problem: extra === undefined ? `is ${preview(shown)}` : `has the unknown key "${extra}"`,
    allowed: allowedFor(pattern, inside.length ? null : schema),
    didYouMean:
      issue.code === "invalid_value" && typeof shown === "string"
        ? closest(shown, issue.values.map(String))
        : null,
    using: null,
  });
}

/**
 * The value if the schema takes it, else a problem. For an object rebuilt from its valid keys,
 * `rebuilt` is true: an issue about a key present in the text was already told when that key was
 * dropped, so only what is missing altogether (a required key) is told here.
 */
function validated(w: Walk, at: At, schema: Schema, value: unknown, rebuilt = false): unknown {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = rebuilt
    ? result.error.issues.find((i) => !findNodeAtLocation(at.valueNode, i.path as Segment[]))
    : result.error.issues[0];
  if (issue) w.problems.push(valueProblem(w, at, schema, issue, value));
  return undefined;
}

/** A key whose text the parser could not read cleanly: the errors between it and its next sibling. */
function unreadable(w: Walk, prop: Node, end: number, keyNode: Node, path: readonly string[]): boolean {
  const broken = w.errors.filter((e) => e.offset > prop.offset && e.offset < end);
  const value = prop.children?.[1];
  if (broken.length === 0 && value) return false;
  for (const e of broken) w.used.add(e);
  const first = broken[0];
  w.problems.push(
    problemAt(w, keyNode.offset, {
      kind: "syntax",
      key: path.join("."),
      problem: first
        ? `${syntaxWords(first)} at ${Object.values(lineCol(w.text, first.offset)).join(":")}`
        : "it has no value",
      allowed: null,
      didYouMean: null,
      using: null,
    }),
  );
  return true;
}

function walkObject(
  w: Walk,
  node: Node,
  level: Level,
  path: string[],
  pattern: string[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const props = node.children ?? [];
  props.forEach((prop, i) => {
    const [keyNode, valueNode] = prop.children ?? [];
    if (!keyNode || typeof keyNode.value !== "string") return;
    const name = keyNode.value;
    const keyPathHere = [...path, name];
    const field = level.fields[name];
    if (!field) {
      if (valueNode) w.problems.push(unknownKey(w, keyNode, keyPathHere, level));
      return;
    }
    const schema = unwrap(field);
    const sub = levelOf(schema);
    const at = {
      keyNode,
      valueNode: valueNode!,
      path: keyPathHere,
      pattern: [...pattern, level.record ? "*" : name],
    };
    let value: unknown;
    if (sub && valueNode?.type === "object") {
      value = validated(w, at, schema, walkObject(w, valueNode, sub, keyPathHere, [...at.pattern]), true);
    } else {
      const end = props[i + 1]?.offset ?? node.offset + node.length;
      if (unreadable(w, prop, end, keyNode, keyPathHere)) return;
      value = validated(w, at, schema, getNodeValue(valueNode!));
    }
    if (value !== undefined) out[name] = value;
  });
  return out;
}

function fileSyntax(w: Walk, errors: readonly ParseError[]): ConfigProblem {
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more error(s) after it)` : "";
  return problemAt(w, errors[0]!.offset, {
    kind: "syntax",
    key: "",
    problem: `${syntaxWords(errors[0]!)}${more}`,
    allowed: null,
    didYouMean: null,
    using: null,
  });
}

function notAnObject(w: Walk, tree: Node): ConfigProblem {
  const level = levelOf(configFileSchema())!;
  return problemAt(w, tree.offset, {
    kind: "bad-value",
    key: "",
    problem: tree.type === "array" ? "is a list" : `is ${preview(getNodeValue(tree))}`,
    allowed: `an object with the keys ${quoted(Object.keys(level.fields))}`,
    didYouMean: null,
    using: null,
  });
}

export interface ConfigRead {
  /** Only what could be read and is valid. */
  data: ConfigFile;
  problems: ConfigProblem[];
}

/** Reads a config file's text; `file` names it in the problems. */
export function readConfigText(text: string, file: string): ConfigRead {
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (isBlank(tree, errors, text)) return { data: {}, problems: [] };
  const w: Walk = { text, file, errors, used: new Set(), problems: [] };
  let data: Record<string, unknown> = {};
  if (tree?.type === "object") data = walkObject(w, tree, levelOf(configFileSchema())!, [], []);
  else if (tree) w.problems.push(notAnObject(w, tree));
  const rest = errors.filter((e) => !w.used.has(e));
  if (rest.length) w.problems.push(fileSyntax(w, rest));
  w.problems.sort((a, b) => a.line! - b.line! || a.column! - b.column!);
  return { data: data as ConfigFile, problems: w.problems };
}
