/**
 * Write targets of a Codex `apply_patch` envelope (docs/clients.md §5).
 *
 * The walk mirrors Codex's own parser (`parse_one_hunk` / `parse_update_file_chunk`)
 * so that content lines which merely look like headers are never read as headers.
 * Where Codex would reject the patch (missing `*** End Patch`, stray lines) we keep
 * going instead: a claim on a file the patch names is harmless, a missed one is not.
 */

export interface PatchTarget {
  op: "add" | "update" | "delete";
  path: string;
  moveTo?: string;
}

const BEGIN = "*** Begin Patch";
const END = "*** End Patch";
const ADD = "*** Add File: ";
const DELETE = "*** Delete File: ";
const UPDATE = "*** Update File: ";
const MOVE_TO = "*** Move to: ";
const END_OF_FILE = "*** End of File";

type State = "seeking" | "header" | "add" | "update";

/** Every file an `apply_patch` text adds, updates, deletes or moves, in patch order. */
export function parsePatchTargets(text: string): PatchTarget[] {
  if (typeof text !== "string") return [];
  const lines = text.split("\n");
  const targets: PatchTarget[] = [];
  // Without a `*** Begin Patch` line anywhere, read from the top rather than miss headers.
  let state: State = lines.some((l) => l.trim() === BEGIN) ? "seeking" : "header";
  for (let i = 0; i < lines.length; i++) {
    const line = stripCr(lines[i]!);
    if (state === "seeking") {
      if (line.trim() === BEGIN) state = "header";
      continue;
    }
    if (state === "add" && line.startsWith("+")) continue;
    if (state === "update" && isHunkLine(line)) continue;
    // Any other line ends an Add or Update section and is a header candidate.
    const header = readHeader(line.trim());
    if (header === "end") {
      state = "seeking";
    } else if (header === null) {
      state = "header";
    } else {
      if (header.op === "update") {
        // Codex checks `*** Move to: ` on the untrimmed line right after the header.
        const next = i + 1 < lines.length ? stripCr(lines[i + 1]!) : "";
        if (next.startsWith(MOVE_TO)) {
          const moveTo = next.slice(MOVE_TO.length);
          if (moveTo !== "") header.moveTo = moveTo;
          i++;
        }
      }
      targets.push(header);
      state = header.op === "delete" ? "header" : header.op;
    }
  }
  return targets;
}

/** Lines Codex consumes inside an Update section; a raw line starting `***` is not one. */
function isHunkLine(line: string): boolean {
  if (line === END_OF_FILE) return true;
  if (line.startsWith("***")) return false;
  return true;
}

function readHeader(trimmed: string): PatchTarget | "end" | null {
  if (trimmed === END) return "end";
  const add = pathAfter(trimmed, ADD);
  if (add !== null) return { op: "add", path: add };
  const del = pathAfter(trimmed, DELETE);
  if (del !== null) return { op: "delete", path: del };
  const update = pathAfter(trimmed, UPDATE);
  if (update !== null) return { op: "update", path: update };
  return null;
}

function pathAfter(line: string, marker: string): string | null {
  if (!line.startsWith(marker)) return null;
  const path = line.slice(marker.length);
  return path === "" ? null : path;
}

/** Rust's `str::lines` drops one trailing `\r`; so do we. */
function stripCr(line: string): string {
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}

/**
 * The patch text inside an `apply_patch` tool input: Codex 0.171.0 sends
 * `{command: "<patch>"}`, older builds `{input: "<patch>"}` or
 * `{command: ["apply_patch", "<patch>"]}`. Clients that deliver `tool_input` as a
 * JSON string are accepted too.
 */
export function patchTextFromToolInput(toolInput: unknown): string | null {
  if (typeof toolInput === "string") return patchTextFromString(toolInput);
  if (toolInput === null || typeof toolInput !== "object") return null;
  const input = toolInput as Record<string, unknown>;
  const { command } = input;
  if (typeof command === "string") return command;
  if (Array.isArray(command)) return patchFromArgv(command);
  if (typeof input.input === "string") return input.input;
  return null;
}

function patchTextFromString(text: string): string | null {
  if (text.trimStart().startsWith("{")) {
    try {
      return patchTextFromToolInput(JSON.parse(text));
    } catch {
      // Not JSON after all: fall through and treat it as the patch itself.
    }
  }
  return text.includes(BEGIN) ? text : null;
}

function patchFromArgv(argv: unknown[]): string | null {
  const [program, patch] = argv;
  if (typeof program !== "string" || typeof patch !== "string") return null;
  const name = program.slice(program.lastIndexOf("/") + 1);
  return name === "apply_patch" || name === "applypatch" ? patch : null;
}

/** Every path the patch writes, deduplicated: a move writes both its source and its destination. */
export function writePaths(targets: PatchTarget[]): string[] {
  const paths = new Set<string>();
  for (const target of targets) {
    paths.add(target.path);
    if (target.moveTo !== undefined) paths.add(target.moveTo);
  }
  return [...paths];
}

/**
 * The body lines of the patch's one Update section for `path` (no move), for judging the change
 * by lines (decision 0061); null when the patch adds, deletes, moves or updates it twice.
 */
export function updateSection(text: string, path: string): string[] | null {
  const targets = parsePatchTargets(text).filter((t) => t.path === path || t.moveTo === path);
  if (targets.length !== 1 || targets[0]!.op !== "update" || targets[0]!.moveTo !== undefined) return null;
  const lines = text.split("\n").map(stripCr);
  const at = lines.findIndex((l) => l.trim() === `${UPDATE}${path}`);
  if (at === -1) return null;
  const body: string[] = [];
  for (const line of lines.slice(at + 1)) {
    if (!isHunkLine(line)) break;
    body.push(line);
  }
  return body;
}
