import { describe, expect, it } from "vitest";
import { extractShellTargets } from "../../src/targets/shell.js";
import { check, HOME, type ShellCase } from "./shell-check.js";

describe("a command that runs tandem hook is flagged, however tandem is reached", () => {
  it.each([
    "tandem hook claude-code pre-tool-use",
    'echo \'{"session_id":"A"}\' | tandem hook claude-code session-end',
    "tandem git-hook pre-commit",
    "tandem --root /repo hook codex stop",
    "/usr/local/bin/tandem hook cursor stop",
    "./node_modules/.bin/tandem hook claude-code stop",
    "npx tandem hook claude-code stop",
    "npx -y tandem@latest hook claude-code stop",
    "npx --package=tandem -- tandem hook claude-code stop",
    "npx -c 'tandem hook claude-code stop'",
    "npm exec tandem -- hook claude-code stop",
    "npm x -- tandem hook claude-code stop",
    "pnpm exec tandem hook claude-code stop",
    "pnpm dlx tandem hook claude-code stop",
    "yarn tandem hook claude-code stop",
    "bunx tandem hook claude-code stop",
    "node dist/tandem.cjs hook claude-code stop",
    "node --no-warnings /opt/tandem/dist/tandem.cjs git-hook post-commit",
    "bash -c 'tandem hook codex stop'",
    'sh -c "cat p.json | tandem hook codex stop"',
    "echo $(tandem hook codex stop)",
    "env A=1 tandem hook codex stop",
    "sudo tandem hook codex stop",
    "exec tandem hook codex stop",
    "timeout 5 tandem hook codex stop",
    "eval 'tandem hook codex stop'",
    "H=hook; tandem $H codex stop",
    "tandem $SUB codex stop",
    "xargs tandem < args.txt",
    "find . -name p.json -exec tandem hook codex stop {} \\;",
    "true && (tandem hook codex stop)",
    "tandem() { :; }; command tandem hook codex stop",
  ])("%s", async (command) => {
    const found = await extractShellTargets(command, { home: HOME });
    expect(found.tandemHook).toBe(true);
    // A forged call is refused anyway; opaque keeps the safety net under it too.
    expect(found.opaque).toBe(true);
  });

  it("flags a hook call on a line before one the parser cannot read (bash runs it)", async () => {
    const found = await extractShellTargets("tandem hook codex stop\necho 'unterminated", { home: HOME });
    expect(found).toMatchObject({ tandemHook: true, opaque: true, error: expect.any(String) });
  });
});

describe("commands that only mention tandem are not hook calls", () => {
  it.each<ShellCase>([
    { command: "grep -rn 'tandem hook' README.md src/" },
    { command: "echo tandem hook" },
    { command: "git log --grep 'tandem hook'" },
    { command: "tandem status" },
    { command: "tandem task 'fix the parser'" },
    { command: "tandem release f.txt" },
    { command: "tandem recover f.txt", opaque: true },
    { command: "tandem-other hook x", opaque: true },
    { command: "node -e 'tandem hook' tandem.cjs hook", opaque: true },
    { command: "npx vitest run", opaque: true },
    { command: "tandem() { echo; }; tandem hook codex stop" },
  ])("$command", check);
});

describe("code interpreters and forms we cannot read stay opaque", () => {
  it.each<ShellCase>([
    { command: "python3 -c \"open('f.txt','w').write('B')\"", opaque: true },
    { command: "python3 x.py", opaque: true },
    { command: "node -e \"require('fs').writeFileSync('f.txt','B')\"", opaque: true },
    { command: "node scripts/gen.js", opaque: true },
    { command: 'ruby -e \'File.write("f.txt", "B")\'', opaque: true },
    { command: "perl -e 'unlink \"f.txt\"'", opaque: true },
    { command: 'eval "$CMD"', opaque: true },
    { command: "eval 'rm f.txt'", writes: ["f.txt"], opaque: true },
    { command: "source env.sh", opaque: true },
    { command: ". ./env.sh", opaque: true },
    { command: "./x.sh", opaque: true },
    { command: "bash x.sh", opaque: true },
    { command: "sh < x.sh", opaque: true },
    { command: "xargs rm < list.txt", opaque: true },
    { command: "ls | xargs -I{} rm {}", opaque: true },
    { command: "find . -name f.txt -delete", opaque: true },
    { command: "find . -name '*.txt' -exec rm {} +", opaque: true },
    { command: "make clean", opaque: true },
    { command: "BASH_ENV=setup.sh bash -c 'touch a'", writes: ["a"], opaque: true },
  ])("$command", check);

  it.each<ShellCase>([
    { command: "source env.sh; rm f.txt", opaque: true },
    { command: 'eval "$SETUP"; touch f', opaque: true },
    { command: "F=a; . ./env.sh; rm $F", opaque: true },
  ])("after $command nothing about the shell is known", check);
});
