/**
 * Reading `/proc/<pid>/mountinfo`: which paths are mount points in a jail, so a bind the owner's
 * rename-save took away can be put back (docs/decisions/0054). Pure.
 */

/** The kernel writes space, tab, newline and backslash in a path as `\ooo` octal escapes. */
export function unescapeMountPath(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, oct: string) => String.fromCharCode(Number.parseInt(oct, 8)));
}

/** Every mount point the text lists (the fifth field of each line). */
export function mountPoints(text: string): Set<string> {
  const out = new Set<string>();
  for (const line of text.split("\n")) {
    const field = line.split(" ")[4];
    if (field) out.add(unescapeMountPath(field));
  }
  return out;
}
