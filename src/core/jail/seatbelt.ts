/**
 * macOS: a seatbelt profile (`sandbox-exec -f`) from the jail's plan (issue 36 §4). A profile is
 * fixed when the sandbox starts and cannot follow claims, so it covers what does not move —
 * Tandem's state, git's config and hooks, the installation and Node, the hook wiring — and leaves
 * peers' files and worktrees to the reader (docs/safety-net.md). Pure: the plan's binds in, the
 * profile's text out. Not run on this Linux machine: the text is tested, `sandbox-exec` is not.
 */

export interface SeatbeltPath {
  /** Physical (symlinks resolved: seatbelt matches the real path, /private/var and all). */
  path: string;
  /** A directory denies everything under it (`subpath`); a file only itself (`literal`). */
  dir: boolean;
  reasons: readonly string[];
}

/** A reason that names a peer's work: that moves with the claims, so no fixed profile holds it. */
export function isPeerReason(reason: string): boolean {
  return /'s (uncommitted file|worktree)$/.test(reason);
}

/** A path as a seatbelt (TinyScheme) string literal. */
export function seatbeltString(path: string): string {
  const body = path.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
  return `"${body}"`;
}

/** The profile: everything allowed, but no write to what does not move. */
export function seatbeltProfile(paths: readonly SeatbeltPath[]): string {
  const fixed = paths.filter((p) => p.reasons.length > 0 && !p.reasons.every(isPeerReason));
  const head = [
    ";; Tandem's seatbelt profile, generated from the jail's plan (issue 36; docs/safety-net.md).",
    ";; Peers' files and worktrees move with the claims: the reader guards those on macOS.",
    "(version 1)",
    "(allow default)",
  ];
  if (fixed.length === 0) return `${head.join("\n")}\n`;
  const rules = fixed.flatMap((p) => [
    `  ;; ${p.reasons
      .filter((r) => !isPeerReason(r))
      .join("; ")
      .replace(/\s+/g, " ")}`,
    `  (${p.dir ? "subpath" : "literal"} ${seatbeltString(p.path)})`,
  ]);
  return `${[...head, "(deny file-write*", ...rules].join("\n")})\n`;
}
