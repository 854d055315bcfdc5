/**
 * Issue 26 §5: `init --help` and `deinit --help` said "all three" clients when five are wired.
 * The help is built from the client registry, so every client is named and none is forgotten.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLIENT_NAMES, CLIENTS } from "../../src/clients/index.js";
import { tandem } from "../helpers/cli.js";
import { tempDir } from "../helpers/repo.js";

/** The `--clients` option's help, joined back into one line. */
function clientsOption(help: string): string {
  const at = help.indexOf("--clients <list>");
  const rest = help.slice(at).split("\n");
  const end = rest.findIndex((l, i) => i > 0 && /^\s+--/.test(l));
  return rest
    .slice(0, end)
    .map((l) => l.trim())
    .join(" ");
}

describe("the client list in help and README", () => {
  for (const command of ["init", "deinit"]) {
    it(`${command} --help names every registered client in --clients, and no count of three`, () => {
      const res = tandem([command, "--help"], { cwd: tempDir() });
      expect(res.code).toBe(0);
      const option = clientsOption(res.stdout);
      expect(option).toContain(`comma-separated: ${CLIENT_NAMES.join(",")}`);
      expect(option).toContain(`all ${CLIENT_NAMES.length}`);
      expect(res.stdout).not.toMatch(/all three/);
    });
  }

  it("init's description names every client by its label", () => {
    const help = tandem(["init", "--help"], { cwd: tempDir() }).stdout.replace(/\s+/g, " ");
    for (const c of Object.values(CLIENTS)) expect(help).toContain(c.label);
  });

  it("the README names every client and never 'all three'", () => {
    const readme = readFileSync(join(process.cwd(), "README.md"), "utf8");
    expect(readme).not.toMatch(/all three/i);
    for (const c of Object.values(CLIENTS)) expect(readme).toContain(c.label);
  });
});
