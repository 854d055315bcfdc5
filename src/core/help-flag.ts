/**
 * Whether a command line asks for help (`-h`, `--help` before a `--`): the help is printed and
 * nothing else happens, so no server is started for it and no store is opened.
 */
export function asksForHelp(argv: readonly string[]): boolean {
  for (const a of argv) {
    if (a === "--") return false;
    if (a === "--help" || a === "-h") return true;
  }
  return false;
}
