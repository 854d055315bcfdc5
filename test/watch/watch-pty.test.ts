import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { TANDEM_BIN, tandem } from "../helpers/cli.js";
import { claudeWrite, denied, fakeAgent, hook } from "../helpers/hooks.js";
import { initRepo, tempDir } from "../helpers/repo.js";
import { sq, Tmux } from "./tmux.js";

const servers: Tmux[] = [];

afterEach(() => {
  for (const t of servers.splice(0)) t.kill();
});

/**
 * A tmux pane running `tandem watch` in `repo`. The shell around it reports how
 * watch exited and whether the tty is back in cooked mode with echo, then keeps
 * the pane open so the restored screen can be read.
 */
function watchInTmux(repo: string, env: Record<string, string> = {}): Tmux {
  const tmux = new Tmux({ XDG_CONFIG_HOME: tempDir("tandem-xdg-"), ...env });
  servers.push(tmux);
  const script = [
    "unset TANDEM_ROOT TANDEM_SESSION CLAUDE_PROJECT_DIR",
    "echo before watch",
    `${sq(process.execPath)} ${sq(TANDEM_BIN)} watch`,
    'echo "watch exited $?"',
    `stty -a | tr ' ;' '\\n\\n' | grep -xE -- '-?(icanon|echo)' | tr '\\n' ' '`,
    "echo",
    "exec sleep 600",
  ].join("; ");
  tmux.start({ cwd: repo, width: 100, height: 30, command: script });
  return tmux;
}

function sessionNames(repo: string): string[] {
  const r = tandem(["sessions", "--all", "--json"], { cwd: repo });
  return (JSON.parse(r.stdout) as { name: string }[]).map((s) => s.name);
}

/** The shell has printed the exit status and the tty modes. */
const exited = (screen: string) => /^watch exited \d+$/m.test(screen) && /^-?icanon /m.test(screen);
const header = (screen: string) => /^tandem watch .* (\d\d:\d\d:\d\d)$/m.exec(screen)?.[1];
const longest = (screen: string) => Math.max(...screen.split("\n").map((l) => [...l].length));

describe("tandem watch in a real terminal", () => {
  it("draws sessions, claims and a refused edit as hooks fire, narrows on resize, and q restores the terminal", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    const tmux = watchInTmux(repo);
    await tmux.waitFor("the empty board", (s) => s.includes("No sessions yet") && s.includes("q quit"));
    expect(tmux.display("#{alternate_on} #{cursor_flag}")).toBe("1 0");

    const first = hook("claude-code", "pre-tool-use", claudeWrite(repo, "sess-A", "src/a.ts"), {
      cwd: repo,
      env: fakeAgent(),
    });
    expect(denied(first)).toBeNull();
    const second = hook("claude-code", "pre-tool-use", claudeWrite(repo, "sess-B", "src/a.ts"), {
      cwd: repo,
      env: fakeAgent(),
    });
    expect(denied(second)).toMatch(/held by/);
    const [a, b] = sessionNames(repo) as [string, string];

    const wide = await tmux.waitFor(
      "both sessions, the claim and the denial",
      (s) => s.includes(a) && s.includes(b) && /src\/a\.ts +-> +agent-/.test(s) && s.includes("claim.denied"),
    );
    expect(wide).toMatch(/NAME +CLIENT +KIND +GUARD +STATE +ACTIVITY +CLAIMS +SEEN +TASK/);
    expect(wide).toMatch(new RegExp(`src/a\\.ts +-> +${a} +live`));
    expect(wide).toMatch(new RegExp(`${b} +claim\\.denied +src/a\\.ts \\(held by ${a}\\)`));
    expect(longest(wide)).toBeLessThanOrEqual(100);
    expect(tmux.screen(true)).toContain("\x1b[3");

    // With no new events the board still redraws each second: the clock moves.
    const shown = header(wide);
    await tmux.waitFor("the clock to tick", (s) => header(s) !== undefined && header(s) !== shown, 5000);

    tmux.run("resize-window", "-x", "60");
    const narrow = await tmux.waitFor(
      "the narrow layout",
      (s) => /^NAME +STATE/m.test(s) && longest(s) <= 60,
    );
    expect(narrow).not.toMatch(/CLIENT|KIND|GUARD/);
    expect(narrow).toContain(a);
    expect(narrow).toContain("claim.denied");

    tmux.run("send-keys", "q");
    const after = await tmux.waitFor("watch to exit", exited);
    expect(after).toContain("before watch");
    expect(after).toContain("watch exited 0");
    expect(after).toMatch(/^icanon echo\s*$/m);
    expect(after).not.toContain("-- SESSIONS");
    expect(tmux.display("#{alternate_on} #{cursor_flag}")).toBe("0 1");
  });

  it("uses no colour codes with NO_COLOR, and Ctrl-C quits cleanly too", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    hook("claude-code", "pre-tool-use", claudeWrite(repo, "sess-A", "src/a.ts"), {
      cwd: repo,
      env: fakeAgent(),
    });
    hook("claude-code", "pre-tool-use", claudeWrite(repo, "sess-B", "src/a.ts"), {
      cwd: repo,
      env: fakeAgent(),
    });
    const tmux = watchInTmux(repo, { NO_COLOR: "1" });
    await tmux.waitFor("the board", (s) => s.includes("claim.denied") && s.includes("q quit"));
    const raw = tmux.screen(true);
    expect(raw).not.toContain("\x1b[3");
    expect(raw).not.toContain("\x1b[");

    tmux.run("send-keys", "C-c");
    const after = await tmux.waitFor("watch to exit", exited);
    expect(after).toContain("watch exited 0");
    expect(after).toMatch(/^icanon echo\s*$/m);
    expect(tmux.display("#{alternate_on} #{cursor_flag}")).toBe("0 1");
  });
});
