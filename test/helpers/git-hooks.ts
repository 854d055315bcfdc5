import { chmodSync, writeFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { git } from "../../src/git/run.js";
import { TANDEM_BIN } from "./cli.js";

/** Installs the four git hooks calling the built binary into the hooks dir git uses for `repo`. */
export function installGitHooks(repo: string): void {
  const rel = git(repo, ["rev-parse", "--git-path", "hooks"]).trim();
  const dir = isAbsolute(rel) ? rel : join(repo, rel);
  for (const name of ["pre-commit", "prepare-commit-msg", "post-commit", "post-checkout"]) {
    const tail = name === "pre-commit" ? "|| exit $?" : "|| true";
    writeFileSync(
      join(dir, name),
      `#!/bin/sh\n"${process.execPath}" "${TANDEM_BIN}" git-hook ${name} "$@" ${tail}\n`,
    );
    chmodSync(join(dir, name), 0o755);
  }
}
