/**
 * The command that enters a standing jail (docs/decisions/0079), as the client's shell runs it:
 * the holder check, the working directory and the original command's words, output and exit code
 * pass through bash and a POSIX sh alike. `nsenter` and `setpriv` are stand-ins on PATH that only
 * drop their own options (the kernel side is test/jail/standing-jail.test.ts); the holder is this
 * test's own process, told apart by its real start time.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { enteredCommand, seatbeltCommand } from "../../src/core/jail/rewrite.js";
import { fileTempDirs } from "./support.js";

const dirs = fileTempDirs();
const bin = dirs.make("tandem-entered-bin-");
const cwd = realpathSync(dirs.make("tandem-entered cwd '-"));
mkdirSync(join(cwd, "sub"));
// Each stand-in skips its options up to `--` and runs the rest, as the real ones do once done.
for (const tool of ["nsenter", "setpriv"]) {
  writeFileSync(join(bin, tool), '#!/bin/sh\nwhile [ "$1" != -- ]; do shift; done\nshift\nexec "$@"\n');
  chmodSync(join(bin, tool), 0o755);
}
// macOS's sandbox-exec, as far as the shell sees it: `-f PROFILE` (which must exist), then the command.
writeFileSync(
  join(bin, "sandbox-exec"),
  '#!/bin/sh\n[ "$1" = -f ] && [ -f "$2" ] || exit 71\nshift 2\nexec "$@"\n',
);
chmodSync(join(bin, "sandbox-exec"), 0o755);
const profile = join(cwd, "a profile.sb");
writeFileSync(profile, "(version 1)\n(allow default)\n");

const stat = readFileSync(`/proc/${process.pid}/stat`, "utf8");
const startTicks = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]!;
const me = { pid: process.pid, startTicks };

function shell(sh: string, command: string, dir = cwd) {
  return spawnSync(sh, ["-c", command], {
    cwd: dir,
    env: { PATH: `${bin}:${process.env.PATH}`, PWD: dir },
    encoding: "utf8",
  });
}

afterAll(() => dirs.removeAll());

it("only root's command drops capabilities with setpriv (another user's exec loses them)", () => {
  expect(enteredCommand(me, "true", true)).toMatch(/ -- setpriv --inh-caps=-all .* -- bash -c /);
  expect(enteredCommand(me, "true", false)).not.toMatch(/setpriv/);
});

const CASES: [string, string, string, number][] = [
  ["a plain command", "echo hi", "hi\n", 0],
  ["its exit code", "echo out; exit 3", "out\n", 3],
  ["single and double quotes", `printf '%s|%s\\n' "a'b" 'c"d'`, `a'b|c"d\n`, 0],
  ["a newline and a comment", "echo one # note\necho two", "one\ntwo\n", 0],
  ["positional words stay empty", 'echo "[$1][$#]"', "[][0]\n", 0],
  ["its own variables", "x=5; echo $((x * 2))", "10\n", 0],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell's ${…}, not a template's.
  ["the jail's variable is gone", 'echo "[${TANDEM_JAIL_CWD-unset}]"', "[unset]\n", 0],
];

describe.each([
  ["bash", false],
  ["sh", false],
  ["bash", true],
  ["sh", true],
] as const)("entering a standing jail from %s (root: %s)", (sh, root) => {
  it.each(CASES)("%s", (_what, command, out, code) => {
    const r = shell(sh, enteredCommand(me, command, root));
    expect(r.stdout, r.stderr).toBe(out);
    expect(r.status).toBe(code);
  });

  it("runs in the caller's working directory, odd name and all", () => {
    const r = shell(sh, enteredCommand(me, "pwd", root), join(cwd, "sub"));
    expect(r.stdout.trim()).toBe(join(cwd, "sub"));
  });

  it("a recycled pid (another start time) runs nothing and says so, with 125", () => {
    const r = shell(sh, enteredCommand({ pid: process.pid, startTicks: "1" }, "touch ran", root));
    expect(r.status).toBe(125);
    expect(r.stderr).toMatch(/jail ended before the command ran, so it did not run/);
    expect(spawnSync("test", ["-e", join(cwd, "ran")]).status).toBe(1);
  });

  it("a holder that is gone runs nothing", () => {
    const r = shell(sh, enteredCommand({ pid: 2 ** 22 + 7, startTicks }, "touch ran", root));
    expect(r.status).toBe(125);
    expect(spawnSync("test", ["-e", join(cwd, "ran")]).status).toBe(1);
  });
});

describe.each(["bash", "sh"])("the seatbelt command (macOS) from %s", (sh) => {
  it.each(CASES)("%s", (_what, command, out, code) => {
    const r = shell(sh, seatbeltCommand(profile, command));
    expect(r.stdout, r.stderr).toBe(out);
    expect(r.status).toBe(code);
  });
});
