/**
 * What an edit tool would leave in a file (decision 0061), computed before it runs so a line
 * claim can judge it. Null when the tool's result cannot be known exactly: the call is then
 * judged by whole files, as a shell command is.
 */

type Input = Record<string, unknown>;

const str = (input: Input, ...keys: string[]): string | null => {
  for (const k of keys) if (typeof input[k] === "string") return input[k] as string;
  return null;
};

interface Replace {
  old: string;
  next: string;
  all: boolean;
}

function replaceOf(input: Input): Replace | null {
  const old = str(input, "old_string", "oldString", "old_str");
  const next = str(input, "new_string", "newString", "new_str");
  if (old === null || next === null || old === "") return null;
  return { old, next, all: input.replace_all === true || input.replaceAll === true };
}

/** One replacement as the tool makes it; null when `old` is missing or, without `all`, ambiguous. */
function applyReplace(text: string, r: Replace): string | null {
  const at = text.indexOf(r.old);
  if (at === -1) return null;
  if (r.all) return text.split(r.old).join(r.next);
  if (text.indexOf(r.old, at + 1) !== -1) return null;
  return text.slice(0, at) + r.next + text.slice(at + r.old.length);
}

function applyEdits(text: string, edits: unknown): string | null {
  if (!Array.isArray(edits)) return null;
  let out: string | null = text;
  for (const e of edits) {
    const r = typeof e === "object" && e !== null ? replaceOf(e as Input) : null;
    if (!r || out === null) return null;
    out = applyReplace(out, r);
  }
  return out;
}

/**
 * The text `tool` leaves in a file now holding `current`; `patchFor` gives an apply_patch's
 * update section for this file (its body lines), or null.
 */
export function proposedText(
  tool: string,
  input: unknown,
  current: string,
  patchBody: string[] | null,
): string | null {
  if (typeof input !== "object" || input === null) return null;
  const i = input as Input;
  switch (tool) {
    case "Write":
    case "write_file":
      return str(i, "content");
    case "Edit":
    case "replace":
    case "StrReplace": {
      const r = replaceOf(i);
      return r ? applyReplace(current, r) : null;
    }
    case "MultiEdit":
      return applyEdits(current, i.edits);
    case "apply_patch":
      return patchBody ? applyPatchBody(current, patchBody) : null;
    default:
      return null;
  }
}

/**
 * An apply_patch update section applied to `current`: each `@@` chunk's old lines (context and
 * `-`) found in order and replaced by its new ones (context and `+`). Null when one is not found.
 */
export function applyPatchBody(current: string, body: readonly string[]): string | null {
  const lines = current.split("\n");
  const endsWithNewline = current.endsWith("\n");
  if (endsWithNewline) lines.pop();
  const chunks: { old: string[]; next: string[] }[] = [];
  for (const line of body) {
    if (line.startsWith("@@") || chunks.length === 0) chunks.push({ old: [], next: [] });
    if (line.startsWith("@@") || line === "*** End of File") continue;
    const c = chunks[chunks.length - 1]!;
    const tag = line[0];
    const text = line.slice(1);
    if (tag !== " " && tag !== "-" && tag !== "+" && line !== "") return null;
    if (tag !== "+") c.old.push(text);
    if (tag !== "-") c.next.push(text);
  }
  let from = 0;
  for (const c of chunks) {
    if (c.old.length === 0 && c.next.length === 0) continue;
    const at = findRun(lines, c.old, from);
    if (at === -1) return null;
    lines.splice(at, c.old.length, ...c.next);
    from = at + c.next.length;
  }
  return lines.join("\n") + (endsWithNewline ? "\n" : "");
}

function findRun(lines: readonly string[], run: readonly string[], from: number): number {
  if (run.length === 0) return lines.length;
  for (let i = from; i + run.length <= lines.length; i++) {
    let ok = true;
    for (let j = 0; j < run.length && ok; j++) ok = lines[i + j] === run[j];
    if (ok) return i;
  }
  return -1;
}
