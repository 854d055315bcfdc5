/**
 * The text a file tool call meant to leave (issue 37.1): a Write's payload, or an Edit applied to
 * the owner's previous saved version. At post-tool the file is compared with it; bytes that differ
 * were left by another writer. Pure; null when the call's meaning cannot be told exactly (an
 * unknown tool, an edit whose old text the previous version does not hold), and then nothing is
 * claimed.
 */

const WRITES = new Set(["Write", "write_file"]);
const EDITS = new Set(["Edit", "replace", "StrReplace"]);

interface OneEdit {
  old: string;
  next: string;
  all: boolean;
}

const str = (o: Record<string, unknown>, ...keys: string[]): string | null => {
  for (const k of keys) if (typeof o[k] === "string") return o[k] as string;
  return null;
};

function editOf(o: Record<string, unknown>): OneEdit | null {
  const old = str(o, "old_string", "old_str");
  const next = str(o, "new_string", "new_str");
  if (old === null || next === null) return null;
  const expected = typeof o.expected_replacements === "number" ? o.expected_replacements : 1;
  return { old, next, all: o.replace_all === true || expected > 1 };
}

/** One edit applied as the tool applies it; null when its old text is not there (or not unique). */
export function applyEdit(text: string, e: OneEdit): string | null {
  if (e.old === "") return text === "" ? e.next : null;
  const at = text.indexOf(e.old);
  if (at < 0) return null;
  if (e.all) return text.split(e.old).join(e.next);
  if (text.indexOf(e.old, at + e.old.length) >= 0) return null;
  return text.slice(0, at) + e.next + text.slice(at + e.old.length);
}

/** Whether the call's meaning depends on the previous saved text: an edit's does, a Write's never. */
export function readsPrevious(tool: { name: string }): boolean {
  return !WRITES.has(tool.name);
}

/** What the call meant the file to hold, given the owner's previous saved text (null: none). */
export function intendedText(tool: { name: string; input: unknown }, previous: string | null): string | null {
  if (typeof tool.input !== "object" || tool.input === null) return null;
  const input = tool.input as Record<string, unknown>;
  if (WRITES.has(tool.name)) return str(input, "content");
  const edits: OneEdit[] = [];
  if (tool.name === "MultiEdit") {
    if (!Array.isArray(input.edits)) return null;
    for (const e of input.edits) {
      const one = typeof e === "object" && e !== null ? editOf(e as Record<string, unknown>) : null;
      if (!one) return null;
      edits.push(one);
    }
  } else if (EDITS.has(tool.name)) {
    const one = editOf(input);
    if (!one) return null;
    edits.push(one);
  } else return null;
  let text = previous ?? (edits[0]?.old === "" ? "" : null);
  for (const e of edits) {
    if (text === null) return null;
    text = applyEdit(text, e);
  }
  return text;
}

/**
 * Whether `text` encodes (UTF-8) to exactly `bytes`: the same answer as
 * `Buffer.from(text).equals(bytes)`, at a third of its cost for a big payload (no separate length
 * pass, no hash of the text). Four spare bytes: a longer text writes past `bytes.length`, never
 * stops at it, since no UTF-8 character is longer.
 */
export function encodesTo(text: string, bytes: Buffer): boolean {
  const buf = Buffer.allocUnsafe(bytes.length + 4);
  return buf.write(text, "utf8") === bytes.length && buf.subarray(0, bytes.length).equals(bytes);
}
