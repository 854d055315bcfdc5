import type { EnvSpelling } from "./key-types.js";
import { CONFIG_KEYS, type KeyDef } from "./keys.js";

/**
 * The docs' table of config keys, from the key table. `npm run docs:config` writes it between
 * the markers of each file in CONFIG_DOCS; test/config/docs-table.test.ts fails when one differs.
 */

export const CONFIG_DOCS = ["README.md", "docs/product.md"] as const;

export const BEGIN = "<!-- config-keys: generated from src/config/keys.ts by `npm run docs:config` -->";
export const END = "<!-- /config-keys -->";

/** A cell: a `|` would end it, even inside backticks. */
const cell = (text: string) => text.replaceAll("|", "\\|");

function meaning(def: KeyDef): string {
  const spelling = def.type.env as EnvSpelling<unknown> | undefined;
  const env = def.env && spelling ? ` Env \`${def.env}${spelling.shown}\`.` : "";
  return `${def.doc}${env}`;
}

function row(def: KeyDef): string {
  const shown = def.docDefault ?? `\`${JSON.stringify(def.default)}\``;
  return `| ${[`\`${def.key}\``, shown, meaning(def)].map(cell).join(" | ")} |`;
}

export function configDocsTable(): string {
  return ["| key | default | meaning |", "|---|---|---|", ...CONFIG_KEYS.map(row)].join("\n");
}

/** The text between the markers, or null when a marker is missing. */
export function generatedPart(text: string): string | null {
  const begin = text.indexOf(BEGIN);
  const end = text.indexOf(END, begin);
  if (begin < 0 || end < 0) return null;
  return text.slice(begin + BEGIN.length, end).trim();
}

/** The text with the table between its markers replaced; null when a marker is missing. */
export function withTable(text: string, table: string): string | null {
  const begin = text.indexOf(BEGIN);
  const end = text.indexOf(END, begin);
  if (begin < 0 || end < 0) return null;
  return `${text.slice(0, begin + BEGIN.length)}\n${table}\n${text.slice(end)}`;
}
