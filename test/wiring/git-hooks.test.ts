import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  hookLaunch,
  installRegion,
  REGION_END,
  REGION_START,
  regionLines,
  removeRegion,
} from "../../src/wiring/git-hooks.js";
import { tempDir } from "../helpers/repo.js";

const L = hookLaunch("tandem", "tandem", "/r");
const block = (name: "pre-commit" | "post-commit" | "post-checkout") => regionLines(name, L);

function installed(
  current: string | null,
  name: "pre-commit" | "post-commit" | "post-checkout" = "pre-commit",
): string {
  const res = installRegion(current, name, L);
  if (!res.ok) throw new Error(res.reason);
  return res.text!;
}

describe("Tandem's block in git hooks", () => {
  it("writes a new hook as #!/bin/sh plus the block; only pre-commit may fail git", () => {
    expect(installed(null)).toBe(["#!/bin/sh", ...block("pre-commit"), ""].join("\n"));
    expect(block("pre-commit")).toEqual([
      REGION_START,
      "# Added by `tandem init`; `tandem deinit` removes it. Edits inside this block are overwritten.",
      'tandem_rc=0; tandem git-hook pre-commit "$@" || tandem_rc=$?',
      expect.stringMatching(
        /^case \$tandem_rc in 126\|127\) printf .*; exit 1 ;; 0\) ;; \*\) exit "\$tandem_rc" ;; esac$/,
      ),
      REGION_END,
    ]);
    expect(installed(null, "post-checkout")).toContain('tandem git-hook post-checkout "$@" || tandem_rc=$?');
    expect(installed(null, "post-checkout")).not.toContain("exit");
  });

  it("goes right after the shebang of an existing hook, keeping the rest verbatim", () => {
    const user = "#!/usr/bin/env bash\nset -e\nnpm run lint\n";
    expect(installed(user)).toBe(
      ["#!/usr/bin/env bash", ...block("pre-commit"), "set -e", "npm run lint", ""].join("\n"),
    );
  });

  it("replaces only its own block, where it stands, and drops duplicates", () => {
    const old = [
      "#!/bin/sh",
      "echo first",
      REGION_START,
      "old-launcher git-hook pre-commit",
      REGION_END,
      "echo last",
      REGION_START,
      "dup",
      REGION_END,
      "",
    ].join("\n");
    expect(installed(old)).toBe(
      ["#!/bin/sh", "echo first", ...block("pre-commit"), "echo last", ""].join("\n"),
    );
    expect(installed(installed(old))).toBe(installed(old));
  });

  it("adds a shell shebang to a script without one (git runs those with sh anyway)", () => {
    expect(installed("echo hi\n").split("\n").slice(0, 2)).toEqual(["#!/bin/sh", REGION_START]);
  });

  it.each(["#!/usr/bin/env python3\nprint(1)\n", "#!/usr/bin/node\n"])(
    "refuses to put shell lines into %j",
    (text) => {
      const res = installRegion(text, "pre-commit", L);
      expect(res).toMatchObject({ ok: false });
      expect(!res.ok && res.reason).toMatch(
        /is not a shell script .*call `tandem git-hook pre-commit "\$@"` from it yourself, or re-run with --no-git-hooks/,
      );
    },
  );

  it("refuses a block that was cut in half", () => {
    expect(installRegion(`#!/bin/sh\n${REGION_START}\necho\n`, "pre-commit", L)).toMatchObject({ ok: false });
    expect(removeRegion(`#!/bin/sh\n${REGION_START}\necho\n`)).toMatchObject({ ok: false });
  });

  it("removal restores the user's hook and deletes one that would be just a shebang", () => {
    const user = "#!/bin/bash\nnpm test\n";
    expect(removeRegion(installed(user))).toEqual({ ok: true, text: user });
    expect(removeRegion(installed(null))).toEqual({ ok: true, text: null });
    expect(removeRegion(user)).toEqual({ ok: true, text: user });
    expect(removeRegion(null)).toEqual({ ok: true, text: null });
  });
});

/** The block as git runs it: an executable file, run with git's arguments and no TTY. */
describe("Tandem's block, run by the shell", () => {
  function setup() {
    const dir = tempDir();
    const log = join(dir, "log");
    // A stand-in for Tandem: logs its call, exits with $EXIT_<name> (0 unless set).
    const fake = (name: string) => {
      const file = join(dir, name);
      writeFileSync(file, `#!/bin/sh\necho "${name} $*" >> '${log}'\nexit "\${EXIT_${name}:-0}"\n`);
      chmodSync(file, 0o755);
      return file;
    };
    const run = (
      name: "pre-commit" | "post-commit",
      launch: ReturnType<typeof hookLaunch>,
      env: Record<string, string> = {},
      user = '#!/bin/sh -e\necho user-line >> "$LOG"\n',
    ) => {
      const res = installRegion(user, name, launch);
      if (!res.ok) throw new Error(res.reason);
      const hook = join(dir, name);
      writeFileSync(hook, res.text!);
      chmodSync(hook, 0o755);
      const r = spawnSync(hook, ["a1"], {
        cwd: dir,
        env: { PATH: "/usr/bin:/bin", LOG: log, ...env },
        encoding: "utf8",
      });
      const lines = existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : [];
      rmSync(log, { force: true });
      return { code: r.status, stderr: r.stderr, lines };
    };
    return { dir, fake, run };
  }

  it("runs the agents' command when it starts, and never the fallback", () => {
    const { fake, run } = setup();
    const launch = hookLaunch(fake("agent"), fake("natural"), "/r");
    expect(run("pre-commit", launch)).toEqual({
      code: 0,
      stderr: "",
      lines: ["agent git-hook pre-commit a1", "user-line"],
    });
  });

  it("keeps Tandem's refusal: a command that started and said no stops the commit, without a second try", () => {
    const { fake, run } = setup();
    const launch = hookLaunch(fake("agent"), fake("natural"), "/r");
    expect(run("pre-commit", launch, { EXIT_agent: "1" })).toMatchObject({
      code: 1,
      lines: ["agent git-hook pre-commit a1"],
    });
  });

  it.each([
    ["is not there", (dir: string) => join(dir, "gone", "tandem"), {}],
    ["cannot find Node (the thin client's 127)", (_dir: string) => "", { EXIT_agent: "127" }],
  ])("falls back to the recorded launcher when the agents' command %s", (_what, missing, env) => {
    const { dir, fake, run } = setup();
    const agent = missing(dir) || fake("agent");
    const res = run("pre-commit", hookLaunch(agent, fake("natural"), "/r"), env);
    expect(res.code).toBe(0);
    expect(res.lines.at(-2)).toBe("natural git-hook pre-commit a1");
    expect(res.lines.at(-1)).toBe("user-line");
  });

  it("stops the commit, saying why and how to fix it, when no command starts Tandem (gates fail closed)", () => {
    const { dir, run } = setup();
    const launch = hookLaunch(join(dir, "gone", "tandem"), "tandem-nowhere", "/my repo");
    const res = run("pre-commit", launch);
    expect(res.code).toBe(1);
    expect(res.lines).toEqual([]); // the user's lines do not run either: the commit is stopped
    expect(res.stderr).toContain(
      `tandem: commit stopped: the pre-commit hook could not start Tandem (\`${join(dir, "gone", "tandem")}\` and \`tandem-nowhere\` are not found or cannot start)`,
    );
    expect(res.stderr).toContain("run `cd '/my repo' && tandem-nowhere init` from a shell where Tandem runs");
  });

  it("never fails git after the fact: a post-commit that cannot start Tandem warns and goes on", () => {
    const { dir, run } = setup();
    const res = run("post-commit", hookLaunch(join(dir, "gone", "tandem"), "tandem-nowhere", "/r"));
    expect(res.code).toBe(0);
    expect(res.lines).toEqual(["user-line"]);
    expect(res.stderr).toMatch(/tandem: warning: the post-commit hook could not start Tandem/);
  });
});
