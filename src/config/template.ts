import { type KeyTree, keyTree } from "./key-tree.js";
import type { EnvSpelling } from "./key-types.js";
import { CONFIG_KEYS, type KeyDef } from "./keys.js";

/**
 * The `.tandem/config.jsonc` that `tandem init` creates, from the key table: every key with a
 * template comment, commented out beside its default and meaning, so the file parses to an empty
 * config (all defaults) and a person changes a setting by uncommenting one line.
 */

const WIDTH = 100;

/** `words` in lines of at most `width` characters (a longer word stands alone). */
export function wrap(words: readonly string[], width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of words) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return line ? [...lines, line] : lines;
}

/**
 * The comment's lines: each paragraph (a line of its own in the table) wrapped to `width`, the
 * key's variable named last and kept whole, so the file tells how to override the key for one
 * process.
 */
export function commentLines(def: KeyDef, width: number): string[] {
  const paragraphs = (def.comment ?? "").split("\n").map((p) => p.split(/\s+/).filter(Boolean));
  const last = paragraphs.at(-1)!;
  const spelling = def.type.env as EnvSpelling<unknown> | undefined;
  if (def.env && spelling) {
    if (!/[.)]$/.test(last.at(-1) ?? ".")) last.push(`${last.pop()}.`);
    last.push(`Env ${def.env}${spelling.shown}.`);
  }
  return paragraphs.flatMap((words) => wrap(words, width));
}

type Level = KeyTree<KeyDef>;

/** A level's lines as they read once uncommented, each with its depth. */
function render(level: Level, depth: number): { depth: number; text: string }[] {
  const entries = [...level];
  return entries.flatMap(([name, node], i) => {
    const comma = i < entries.length - 1 ? "," : "";
    if (node instanceof Map) {
      return [{ depth, text: `"${name}": {` }, ...render(node, depth + 1), { depth, text: `}${comma}` }];
    }
    const room = WIDTH - "  //  // ".length - 2 * depth;
    const value = JSON.stringify(node.example ?? node.default);
    return [
      ...commentLines(node, room).map((line) => ({ depth, text: `// ${line}` })),
      { depth, text: `"${name}": ${value}${comma}` },
    ];
  });
}

const HEAD = `// Tandem project configuration, shared by every agent working in this repository.
// Commit this file. Every key is optional: the values shown are the defaults.
// To change a setting, uncomment its line (and the lines of the objects around it).
{
`;

/** The template; `init` (the record's lines, not commented) goes first inside the braces. */
export function configTemplateText(init: string | null): string {
  const keys = keyTree(
    CONFIG_KEYS.filter((def) => def.comment !== undefined),
    (def) => def,
  );
  const body = render(keys, 0).map((l) => `  // ${"  ".repeat(l.depth)}${l.text}`);
  return `${HEAD}${init === null ? "" : `${init}\n`}${body.join("\n")}\n}\n`;
}
