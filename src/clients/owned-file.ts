/**
 * The mark of a hook file Tandem writes whole (layout `files`: a plugin, a hook script). The line
 * also names the hook command the file runs, so init can tell its own file from a person's and
 * doctor can read back which launcher the wiring calls, whatever the file's language.
 */
export const OWNED_MARKER = "tandem:hook-file";

/** `<comment> tandem:hook-file <command>`, in the file's own comment syntax (`#`, `//`). */
export function ownedMarkerLine(comment: string, command: string): string {
  return `${comment} ${OWNED_MARKER} ${command}`;
}

export function isOwnedHookFile(text: string): boolean {
  return ownedCommands(text).length > 0;
}

/** The hook commands a file's marker lines name, in order. */
export function ownedCommands(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split("\n")) {
    const at = line.indexOf(`${OWNED_MARKER} `);
    if (at >= 0 && /^\s*(?:#|\/\/|;|--)\s*$/.test(line.slice(0, at))) {
      const command = line.slice(at + OWNED_MARKER.length + 1).trim();
      if (command) out.push(command);
    }
  }
  return out;
}
