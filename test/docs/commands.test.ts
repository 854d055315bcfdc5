import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { processIo } from "../../src/cli/context.js";
import { COMMANDS } from "../../src/cli/full.js";
import { buildProgram } from "../../src/cli/program.js";
import { CLIENTS } from "../../src/clients/index.js";

/**
 * Issue 42 §7: the user guide and the product reference cover every command and every client.
 * The commands are read from the program `tandem` runs, so a command added there and not here fails.
 */

const doc = (name: string) => readFileSync(join(process.cwd(), "docs", name), "utf8");

/** `init`, `sub run`, …: every command word path the program answers, commander's `help` aside. */
function commandPaths(cmd: Command, prefix: string[] = []): string[] {
  return cmd.commands
    .filter((c) => c.name() !== "help")
    .flatMap((c) => {
      const path = [...prefix, c.name()];
      return c.commands.length > 0 ? commandPaths(c, path) : [path.join(" ")];
    });
}

/** The paths of `paths` that `text` never shows as a code span starting `tandem <path>`. */
function missing(text: string, paths: readonly string[]): string[] {
  return paths.filter((p) => !new RegExp(`\`tandem ${p}[\\s\`\\[]`).test(text));
}

describe("the docs cover every command and client", () => {
  const paths = commandPaths(buildProgram(processIo(), COMMANDS));

  it("reads the commands from the program", () => {
    expect(paths).toContain("init");
    expect(paths).toContain("sub apply");
    expect(paths.length).toBeGreaterThan(25);
  });

  it.each(["guide.md", "product.md"])("%s shows every command as `tandem …`", (name) => {
    // A command added to src/cli/full.ts (or to `tandem sub`) gets a line in this document.
    expect(missing(doc(name), paths)).toEqual([]);
  });

  it.each(["guide.md", "product.md"])("%s names every client", (name) => {
    const text = doc(name);
    const absent = Object.values(CLIENTS).filter((c) => !text.includes(c.label) || !text.includes(c.name));
    expect(absent.map((c) => c.name)).toEqual([]);
  });
});
