import { describe, expect, it } from "vitest";
import { tandem } from "../helpers/cli.js";
import { tempDir } from "../helpers/repo.js";

const COMMANDS = [
  ["init"],
  ["deinit"],
  ["status"],
  ["task"],
  ["claims"],
  ["release"],
  ["sessions"],
  ["events"],
  ["doctor"],
  ["demo"],
  ["watch"],
  ["sub", "run"],
  ["sub", "list"],
  ["sub", "show"],
  ["sub", "capture"],
  ["sub", "apply"],
  ["sub", "remove"],
  ["sub", "discard"],
];

describe("help", () => {
  it.each(COMMANDS.map((c) => [c.join(" "), c]))(
    "`tandem %s --help` describes the command with an example",
    (_name, cmd) => {
      const r = tandem([...cmd, "--help"], { cwd: tempDir() });
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^Usage: tandem /);
      expect(r.stdout).toMatch(/Examples?:\n\s+tandem /);
    },
  );

  it("lists every command in `tandem --help`", () => {
    const r = tandem(["--help"], { cwd: tempDir() });
    for (const [cmd] of COMMANDS) expect(r.stdout).toContain(`  ${cmd}`);
  });
});
