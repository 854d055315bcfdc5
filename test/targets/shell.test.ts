import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { extractShellTargets, type ShellTargets } from "../../src/targets/shell.js";

const HOME = "/home/user";
const extract = (command: string) => extractShellTargets(command, { home: HOME });

const FIXTURES = new URL("../fixtures/", import.meta.url);

interface HookPayload {
  hook_event_name?: string;
  tool_name?: string;
  tool_input?: { command?: unknown };
}

function payload(path: string): HookPayload {
  return JSON.parse(readFileSync(new URL(path, FIXTURES), "utf8")) as HookPayload;
}

function observed(path: string, line: number): HookPayload {
  const lines = readFileSync(new URL(path, FIXTURES), "utf8").split("\n");
  return (JSON.parse(lines[line - 1]!) as { stdin: HookPayload }).stdin;
}

/** Writes expected from a command, with `opaque` false unless said otherwise. */
interface Case {
  command: string;
  writes: string[];
  opaque?: boolean;
}

async function expectTargets({ command, writes, opaque = false }: Case): Promise<ShellTargets> {
  const found = await extract(command);
  expect(found.error).toBeUndefined();
  expect(found.writes).toEqual(writes);
  expect(found.opaque).toBe(opaque);
  return found;
}

/** The same check as a test body (vitest wants it to resolve to nothing). */
async function check(c: Case): Promise<void> {
  await expectTargets(c);
}

describe("process globals", () => {
  it("loads the parser without changing Error.stackTraceLimit or globalThis.require", async () => {
    const limit = Error.stackTraceLimit;
    const hadRequire = Object.hasOwn(globalThis, "require");
    await extract("touch a");
    expect(Error.stackTraceLimit).toBe(limit);
    expect(Object.hasOwn(globalThis, "require")).toBe(hadRequire);
  });
});

describe("extractShellTargets on recorded shell payloads", () => {
  it.each([
    {
      name: "claude-code/bash-PreToolUse.json",
      input: payload("claude-code/bash-PreToolUse.json"),
      writes: ["bash.txt"],
    },
    {
      name: "codex/write-PreToolUse-2.json",
      input: payload("codex/write-PreToolUse-2.json"),
      writes: ["shell.txt"],
    },
    {
      name: "codex/observed-0.171.0.jsonl line 3",
      input: observed("codex/observed-0.171.0.jsonl", 3),
      writes: ["u.txt", "d.txt", "m.txt"],
    },
    {
      name: "claude-code/observed-2.1.332.jsonl line 9",
      input: observed("claude-code/observed-2.1.332.jsonl", 9),
      writes: [],
    },
  ])("finds the writes of $name", async ({ input, writes }) => {
    expect(input.tool_name).toBe("Bash");
    await expectTargets({ command: String(input.tool_input?.command), writes });
  });
});

describe("output redirections", () => {
  it.each<Case & { behaviour: string }>([
    { behaviour: "> writes its target", command: "echo x > out.txt", writes: ["out.txt"] },
    { behaviour: ">> appends to its target", command: "echo x >> log.txt", writes: ["log.txt"] },
    { behaviour: ">| clobbers its target", command: "echo x >| f", writes: ["f"] },
    {
      behaviour: "&> and &>> write their targets",
      command: "make &> a.log; make &>> b.log",
      writes: ["a.log", "b.log"],
      opaque: true,
    },
    { behaviour: "<> opens its target for writing", command: "cat <> rw.txt", writes: ["rw.txt"] },
    {
      behaviour: "fd forms such as 2> write their targets",
      command: "ls 2> err.txt 1>out.txt",
      writes: ["err.txt", "out.txt"],
    },
    { behaviour: ">& with a file name is &>", command: "ls >& all.txt", writes: ["all.txt"] },
    { behaviour: "2>&1 and >&- are descriptor moves, not files", command: "ls 2>&1 >&- 3>&2-", writes: [] },
    {
      behaviour: "/dev/null and other devices are ignored",
      command: "ls >/dev/null 2>/dev/stderr | tee /dev/tty",
      writes: [],
    },
    {
      behaviour: "/dev/shm holds ordinary files, so writing there is a write",
      command: "ls > /dev/shm/list.txt; rm /dev/shm/old.txt",
      writes: ["/dev/shm/list.txt", "/dev/shm/old.txt"],
    },
    { behaviour: "input redirections are not writes", command: "sort < in.txt <<< word", writes: [] },
    { behaviour: "exec redirections write their targets", command: "exec 3> fd3.txt", writes: ["fd3.txt"] },
    { behaviour: "a redirection alone writes its target", command: "> empty.txt", writes: ["empty.txt"] },
    { behaviour: "single-quoted names are unquoted", command: "echo x > 'a b.txt'", writes: ["a b.txt"] },
    {
      behaviour: "double-quoted names are unescaped",
      command: 'echo x > "say \\"hi\\".txt"',
      writes: ['say "hi".txt'],
    },
    { behaviour: "backslash-escaped names are unescaped", command: "echo x > a\\ b\\*c", writes: ["a b*c"] },
    {
      behaviour: "$'…' names are decoded",
      command: "echo x > $'line\\nbreak\\x21'",
      writes: ["line\nbreak!"],
    },
    {
      behaviour: "non-ASCII names are kept",
      command: "echo x > 'naïve/日本語.txt'",
      writes: ["naïve/日本語.txt"],
    },
    {
      behaviour: "~/ expands to the home directory",
      command: "echo x > ~/notes.txt",
      writes: [`${HOME}/notes.txt`],
    },
  ])("$behaviour", check);

  it.each<Case & { behaviour: string }>([
    { behaviour: "a variable target is opaque", command: "echo x > $OUT", writes: [], opaque: true },
    {
      behaviour: "a quoted variable target is opaque",
      command: 'echo x > "$DIR/out"',
      writes: [],
      opaque: true,
    },
    {
      behaviour: "a command substitution target is opaque",
      command: "echo x > $(mktemp)",
      writes: [],
      opaque: true,
    },
    {
      behaviour: "a glob target is opaque without the caller's directory",
      command: "echo x > *.txt",
      writes: [],
      opaque: true,
    },
    { behaviour: "another user's home is opaque", command: "echo x > ~bob/f", writes: [], opaque: true },
  ])("$behaviour", check);
});

describe("mutating commands", () => {
  it.each<Case>([
    { command: "rm -rf build dist/", writes: ["build", "dist/"] },
    { command: "rm -f -- -dashed --also", writes: ["-dashed", "--also"] },
    { command: "rm a -f", writes: ["a"] },
    { command: "rmdir -p empty/dir", writes: ["empty/dir"] },
    { command: "unlink old.lock", writes: ["old.lock"] },
    { command: "mv a.txt b.txt dest/", writes: ["a.txt", "b.txt", "dest/"] },
    { command: "mv -t dest a b", writes: ["a", "b", "dest"] },
    { command: "mv --target-directory=dest a", writes: ["a", "dest"] },
    { command: "cp -r src1 src2 dest", writes: ["dest"] },
    { command: "cp -t dest a b", writes: ["dest"] },
    { command: "cp -S .bak a b", writes: ["b"] },
    { command: "touch -d '2020-01-01' stamp new.txt", writes: ["stamp", "new.txt"] },
    { command: "mkdir -p -m 755 a/b/c", writes: ["a/b/c"] },
    { command: "echo x | tee -a one.log two.log", writes: ["one.log", "two.log"] },
    { command: "sed -i 's/a/b/' f1 f2", writes: ["f1", "f2"] },
    { command: "sed -i.bak -e 's/a/b/' -e 's/c/d/' f", writes: ["f"] },
    { command: "sed --in-place -f script.sed f", writes: ["f"] },
    { command: "sed -ni 's/a/b/p' f", writes: ["f"] },
    { command: "sed -i '' 's/a/b/' mac.txt", writes: ["mac.txt"] },
    { command: "sed -n 's/a/b/p' read-only.txt", writes: [] },
    { command: "truncate -s 0 big.log", writes: ["big.log"] },
    { command: "chmod +x run.sh lib.sh", writes: ["run.sh", "lib.sh"] },
    { command: "chmod -R -w,+r ro/", writes: ["ro/"] },
    { command: "chmod --reference=ref a", writes: ["a"] },
    { command: "chown -R user:group dir", writes: ["dir"] },
    { command: "chgrp staff f", writes: ["f"] },
    { command: "ln -s ../target link", writes: ["link"] },
    { command: "ln -s /opt/tool/bin/tool", writes: ["tool"] },
    { command: "install -m 644 build/tool /usr/local/bin/tool", writes: ["/usr/local/bin/tool"] },
    { command: "install -d d1 d2", writes: ["d1", "d2"] },
    { command: "dd if=/dev/zero of=disk.img bs=1M count=1", writes: ["disk.img"] },
    { command: "sort -o sorted.txt in.txt", writes: ["sorted.txt"] },
    { command: "uniq in.txt out.txt", writes: ["out.txt"] },
    { command: "git rm -r old/", writes: ["old/"] },
    { command: "git rm --cached keep-on-disk.txt", writes: [] },
    { command: "git mv from.txt to.txt", writes: ["from.txt", "to.txt"] },
    { command: "perl -pi -e 's/a/b/' p1 p2", writes: ["p1", "p2"] },
    { command: "perl -i.orig -pe 's/a/b/' p", writes: ["p"] },
  ])("$command", check);

  it("leaves git checkout and restore operands to the impact reader", async () => {
    for (const command of ["git checkout -- a.txt", "git restore --staged x", "git -C sub checkout -- f"]) {
      await expectTargets({ command, writes: [] });
    }
  });

  it.each<Case>([
    { command: "patch -p1 < fix.diff", writes: [], opaque: true },
    { command: "perl script.pl", writes: [], opaque: true },
    { command: "sed -i 's/a/b/' *.txt", writes: [], opaque: true },
    { command: "rm -rf build/*", writes: [], opaque: true },
    { command: "find . -name '*.orig' -delete", writes: [], opaque: true },
    { command: "find . -exec rm {} +", writes: [], opaque: true },
  ])("$command is opaque", check);
});

describe("command structure", () => {
  it.each<Case & { behaviour: string }>([
    {
      behaviour: "&&, || and ; chains are all walked",
      command: "touch a && rm b || mv c d; touch e",
      writes: ["a", "b", "c", "d", "e"],
    },
    { behaviour: "pipelines are walked", command: "cat x | tee y | sort > z", writes: ["y", "z"] },
    { behaviour: "subshells are walked", command: "(touch a; rm b)", writes: ["a", "b"] },
    { behaviour: "{ } blocks are walked", command: "{ touch a; } > log", writes: ["log", "a"] },
    {
      behaviour: "if / elif / else bodies are walked",
      command: "if [ -f a ]; then rm a; elif true; then touch b; else touch c; fi",
      writes: ["a", "b", "c"],
    },
    {
      behaviour: "while and for bodies are walked",
      command: "while false; do touch w; done; for i in 1 2; do touch f; done",
      writes: ["w", "f"],
    },
    {
      behaviour: "case bodies are walked",
      command: "case $x in a) rm a;; *) touch z;; esac",
      writes: ["a", "z"],
    },
    {
      behaviour: "function bodies are walked and calling them adds nothing",
      command: "f() { touch inside; }; f",
      writes: ["inside"],
    },
    {
      behaviour: "command substitutions run their commands",
      command: 'echo "$(touch made)"',
      writes: ["made"],
    },
    {
      behaviour: "time, ! and background jobs are walked",
      command: "time touch t; ! rm n; touch bg &",
      writes: ["t", "n", "bg"],
    },
    {
      behaviour: "assignments alone write nothing",
      command: "X=1 Y=$(pwd); export Z=2; declare -a A=(1 2)",
      writes: [],
    },
    {
      behaviour: "comments and blank lines are ignored",
      command: "# setup\n\ntouch a # trailing\n",
      writes: ["a"],
    },
    {
      behaviour: "bash -c with a static script is parsed",
      command: "bash -lc 'touch a && echo > b'",
      writes: ["a", "b"],
    },
    { behaviour: "sh -c is parsed too", command: "sh -c \"rm 'x y'\"", writes: ["x y"] },
    { behaviour: "/usr/bin/rm is rm", command: "/usr/bin/rm -f a", writes: ["a"] },
  ])("$behaviour", check);

  it.each<Case & { behaviour: string }>([
    { behaviour: "sudo runs its command", command: "sudo -u root rm /etc/x", writes: ["/etc/x"] },
    { behaviour: "sudo -e edits its files", command: "sudo -e /etc/hosts", writes: ["/etc/hosts"] },
    { behaviour: "env with assignments runs its command", command: "env A=1 B=2 touch e", writes: ["e"] },
    {
      behaviour: "env -C changes directory for its command",
      command: "env -C dir touch t; touch u",
      writes: ["dir/t", "u"],
    },
    { behaviour: "command runs its command", command: "command touch c", writes: ["c"] },
    { behaviour: "command -v only looks up", command: "command -v rm", writes: [] },
    { behaviour: "nice runs its command", command: "nice -n 10 touch n", writes: ["n"] },
    { behaviour: "nohup runs its command", command: "nohup touch h", writes: ["h"] },
    { behaviour: "timeout skips its duration", command: "timeout -s KILL 10 touch t", writes: ["t"] },
    {
      behaviour: "/usr/bin/time -o writes its report",
      command: "/usr/bin/time -o timing.txt touch t",
      writes: ["timing.txt", "t"],
    },
    { behaviour: "exec runs its command", command: "exec touch x", writes: ["x"] },
  ])("$behaviour", check);
});

describe("cd", () => {
  it.each<Case & { behaviour: string }>([
    {
      behaviour: "cd DIR && … prefixes later relative targets",
      command: "cd sub && echo x > f",
      writes: ["sub/f"],
    },
    {
      behaviour: "cd accumulates and normalises",
      command: "cd a/b && cd ../c && touch f",
      writes: ["a/c/f"],
    },
    { behaviour: "an absolute cd makes targets absolute", command: "cd /tmp && touch t", writes: ["/tmp/t"] },
    { behaviour: "absolute targets ignore cd", command: "cd sub && touch /abs/f", writes: ["/abs/f"] },
    {
      behaviour: "a redirection on cd is evaluated before it",
      command: "cd sub > log && touch f",
      writes: ["log", "sub/f"],
    },
    {
      behaviour: "cd inside a subshell does not leak",
      command: "(cd sub && touch in); touch out",
      writes: ["sub/in", "out"],
    },
    { behaviour: "cd inside a pipeline does not leak", command: "cd sub | cat; touch out", writes: ["out"] },
    {
      behaviour: "cd inside bash -c does not leak",
      command: "bash -c 'cd sub; touch in'; touch out",
      writes: ["sub/in", "out"],
    },
    { behaviour: "cd with no argument goes home", command: "cd && touch f", writes: [`${HOME}/f`] },
    { behaviour: "pushd works like cd", command: "pushd sub && touch f", writes: ["sub/f"] },
    {
      behaviour: "cd applies to an apply_patch heredoc",
      command: "cd pkg && apply_patch <<'EOF'\n*** Begin Patch\n*** Delete File: old.ts\n*** End Patch\nEOF",
      writes: ["pkg/old.ts"],
    },
  ])("$behaviour", check);

  it.each<Case & { behaviour: string }>([
    {
      behaviour: "after cd $VAR relative targets are unknown",
      command: 'cd "$DIR" && touch f; touch /abs/g',
      writes: ["/abs/g"],
      opaque: true,
    },
    {
      behaviour: "after cd - relative targets are unknown",
      command: "cd - && touch f",
      writes: [],
      opaque: true,
    },
    {
      behaviour: "after popd relative targets are unknown",
      command: "popd; touch f",
      writes: [],
      opaque: true,
    },
  ])("$behaviour", check);
});

describe("commands that write nothing", () => {
  it.each([
    "ls -la",
    "cat a b | grep -n x | head -5",
    "git status && git diff HEAD~1 && git log --oneline -5",
    "git add -A && git commit -m 'msg'",
    "git commit -m \"$(cat <<'EOF'\nSubject\n\nBody\nEOF\n)\"",
    "npm test",
    "echo hi && pwd",
    "find . -name '*.ts' -type f",
    "[ -f a ] && test -d b; [[ -n $x ]]",
    "wc -l $(git ls-files)",
    "rg TODO src/ | sort | uniq -c",
  ])("%s adds nothing and is not opaque", async (command) => {
    await expectTargets({ command, writes: [] });
  });
});

describe("opaque commands", () => {
  it.each([
    "./build.sh",
    "python x.py",
    "node scripts/gen.js",
    "npm install",
    "npx vitest run",
    "make -C sub",
    'eval "$CMD"',
    "source env.sh",
    "bash script.sh",
    'bash -c "$SCRIPT"',
    "xargs rm < list.txt",
    "$EDITOR file.txt",
    "curl -o out.bin https://example.invalid/x",
    "git diff --output=changes.diff",
    "env -S 'touch a' ",
  ])("%s is opaque", async (command) => {
    const found = await extract(command);
    expect(found.opaque).toBe(true);
    expect(found.error).toBeUndefined();
  });

  it("keeps known targets next to an opaque part", async () => {
    await expectTargets({ command: "touch a && ./gen.sh > out.txt", writes: ["a", "out.txt"], opaque: true });
  });
});

describe("apply_patch inside a shell command", () => {
  const body =
    "*** Begin Patch\n*** Add File: new.txt\n+hi\n*** Update File: old.txt\n@@\n-a\n+b\n*** End Patch\n";

  it.each([
    { delimiter: "<<'EOF'", end: "EOF" },
    { delimiter: "<<EOF", end: "EOF" },
    { delimiter: '<<"EOF"', end: "EOF" },
    { delimiter: "<<'PATCH'", end: "PATCH" },
  ])("returns the body of apply_patch $delimiter and its paths", async ({ delimiter, end }) => {
    const found = await expectTargets({
      command: `apply_patch ${delimiter}\n${body}${end}\n`,
      writes: ["new.txt", "old.txt"],
    });
    expect(found.patches).toEqual([body]);
  });

  it("strips leading tabs from an apply_patch <<-EOF body", async () => {
    const tabbed = body
      .split("\n")
      .map((line) => (line === "" ? line : `\t${line}`))
      .join("\n");
    const found = await expectTargets({
      command: `apply_patch <<-EOF\n${tabbed}\tEOF\n`,
      writes: ["new.txt", "old.txt"],
    });
    expect(found.patches).toEqual([body]);
  });

  it("applies heredoc escapes only under an unquoted delimiter", async () => {
    const escaped = "*** Begin Patch\n*** Delete File: cost\\$.txt\n*** End Patch\n";
    await expectTargets({ command: `apply_patch <<EOF\n${escaped}EOF\n`, writes: ["cost$.txt"] });
    await expectTargets({ command: `apply_patch <<'EOF'\n${escaped}EOF\n`, writes: ["cost\\$.txt"] });
  });

  it("reads a patch given as an argument", async () => {
    const found = await expectTargets({ command: `apply_patch '${body}'`, writes: ["new.txt", "old.txt"] });
    expect(found.patches).toEqual([body]);
  });

  it("collects several patches and the other writes of the command", async () => {
    const command = `apply_patch <<'A'\n${body}A\necho done > log.txt\napplypatch <<'B'\n*** Begin Patch\n*** Delete File: gone\n*** End Patch\nB\n`;
    const found = await expectTargets({ command, writes: ["new.txt", "old.txt", "log.txt", "gone"] });
    expect(found.patches).toHaveLength(2);
  });

  it("marks a patch with expansions in its heredoc opaque", async () => {
    const found = await extract(
      "apply_patch <<EOF\n*** Begin Patch\n*** Add File: $NAME\n+x\n*** End Patch\nEOF\n",
    );
    expect(found).toMatchObject({ writes: [], patches: [], opaque: true });
  });

  it("marks apply_patch reading a file opaque", async () => {
    expect((await extract("apply_patch < change.patch")).opaque).toBe(true);
  });

  it("does not take a cat heredoc for a patch", async () => {
    const found = await expectTargets({
      command: `cat > notes.md <<'EOF'\n${body}EOF\n`,
      writes: ["notes.md"],
    });
    expect(found.patches).toEqual([]);
  });
});

describe("commands that do not parse", () => {
  it.each(["echo 'unterminated", "if true; then", "a &&", "echo )", "cat <<EOF\nno end"])(
    "%s sets error and opaque",
    async (command) => {
      const found = await extract(command);
      expect(found.error).toEqual(expect.any(String));
      expect(found).toMatchObject({ writes: [], patches: [], opaque: true });
    },
  );
});

describe("paths", () => {
  it.each<Case & { behaviour: string }>([
    {
      behaviour: "spaces survive quoting",
      command: "touch 'a b' \"c d\" e\\ f",
      writes: ["a b", "c d", "e f"],
    },
    {
      behaviour: "quotes inside names survive",
      command: `touch "it's" 'say "x"'`,
      writes: ["it's", 'say "x"'],
    },
    {
      behaviour: "newlines inside names survive",
      command: "touch 'line\nbreak' $'tab\\there'",
      writes: ["line\nbreak", "tab\there"],
    },
    {
      behaviour: "non-ASCII names survive",
      command: "rm -- 'ünïcødé.txt' 日本.md",
      writes: ["ünïcødé.txt", "日本.md"],
    },
    {
      behaviour: "leading dashes after -- are paths",
      command: "rm -- -rf --help",
      writes: ["-rf", "--help"],
    },
    { behaviour: "leading dashes before -- are options", command: "rm -rf --verbose x", writes: ["x"] },
    { behaviour: "duplicate targets are listed once", command: "touch a; echo >> a; rm a", writes: ["a"] },
  ])("$behaviour", check);
});
