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
  ["adopt"],
  ["discard"],
  ["reserve"],
  ["conflicts"],
  ["land"],
  ["sessions"],
  ["events"],
  ["doctor"],
  ["demo"],
  ["watch"],
  ["ui"],
  ["serve"],
  ["sub"],
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

  it.each([[[]], [["sub"]], [["--root", ".", "sub"]]])(
    "`tandem %j` alone prints the same help as --help, on stdout, exit 0",
    (words) => {
      const cwd = tempDir();
      const bare = tandem(words, { cwd });
      expect(bare.code).toBe(0);
      expect(bare.stderr).toBe("");
      expect(bare.stdout).toBe(tandem([...words, "--help"], { cwd }).stdout);
    },
  );

  it.each([
    [["status", "--bogus"], "unknown option '--bogus' (see `tandem status --help`)"],
    [["sub", "run", "--bogus"], "unknown option '--bogus' (see `tandem sub run --help`)"],
    [["sub", "bogus"], "unknown command 'bogus' (see `tandem sub --help`)"],
    [["bogus"], "unknown command 'bogus' (see `tandem --help`)"],
  ])("`tandem %j` is a usage error pointing at that command's help", (words, message) => {
    const r = tandem(words, { cwd: tempDir() });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`tandem: ${message}\n`);
  });

  it("lists every command in `tandem --help`", () => {
    const r = tandem(["--help"], { cwd: tempDir() });
    for (const [cmd] of COMMANDS) expect(r.stdout).toContain(`  ${cmd}`);
  });
});
