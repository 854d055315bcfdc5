import { spawnSync } from "node:child_process";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkLauncher, hookCommand, parseOurCommand, shellQuote } from "../../src/wiring/hook-command.js";
import { TANDEM_BIN } from "../helpers/cli.js";
import { tempDir } from "../helpers/repo.js";

describe("recognising Tandem's own hook commands", () => {
  it.each([
    ["tandem hook claude-code stop", { client: "claude-code", event: "stop" }],
    ["npx tandem hook codex pre-tool-use", { client: "codex", event: "pre-tool-use" }],
    ["/usr/bin/node /opt/tandem/dist/tandem.cjs hook cursor stop", { client: "cursor", event: "stop" }],
    ["'/usr/bin/node' '/home/a b/tandem.cjs' hook codex stop", { client: "codex", event: "stop" }],
    ['"/home/a b/tandem" hook cursor session-end  ', { client: "cursor", event: "session-end" }],
    ["tandem hook claude-code stop-failure", { client: "claude-code", event: "stop-failure" }],
  ])("%s is ours", (command, expected) => {
    expect(parseOurCommand(command)).toEqual(expected);
  });

  it.each([
    "./scripts/guard.sh",
    "mytandem hook codex stop",
    "tandem hook vscode stop",
    "tandem hook codex stop --verbose",
    "tandem hook codex stop; rm -rf /tmp/x",
    "echo tandem && other hook codex stop",
    "tandem-wrapper hook codex stop",
    "tandem.js hook codex stop",
  ])("%s is foreign", (command) => {
    expect(parseOurCommand(command)).toBeNull();
  });

  it("never confuses stop with stop-failure", () => {
    expect(parseOurCommand("tandem hook claude-code stop-failure")?.event).toBe("stop-failure");
    expect(parseOurCommand("tandem hook claude-code stop")?.event).toBe("stop");
  });

  it("accepts only launchers whose commands it would recognise again", () => {
    expect(checkLauncher(" npx tandem ")).toBe("npx tandem");
    expect(checkLauncher("'/opt/my tools/tandem.cjs'")).toBe("'/opt/my tools/tandem.cjs'");
    for (const bad of ["", "npx tandem@0.1.0", "/usr/bin/tandem-dev"]) {
      expect(() => checkLauncher(bad)).toThrow(/--command .* must end with tandem or tandem\.cjs/);
    }
  });
});

describe("quoting the launcher for a POSIX shell", () => {
  it("leaves plain paths bare and single-quotes the rest", () => {
    expect(shellQuote("/usr/bin/node")).toBe("/usr/bin/node");
    expect(shellQuote("/home/a b/tandem.cjs")).toBe("'/home/a b/tandem.cjs'");
    expect(shellQuote("/x/it's $HOME/`t`")).toBe("'/x/it'\\''s $HOME/`t`'");
  });

  it("builds a command a shell runs with awkward paths intact", () => {
    const dir = join(tempDir(), "it's a $dir");
    mkdirSync(dir);
    const link = join(dir, "tandem.cjs");
    symlinkSync(TANDEM_BIN, link);
    const command = `${shellQuote(process.execPath)} ${shellQuote(link)} --version`;
    const res = spawnSync("/bin/sh", ["-c", command], { encoding: "utf8" });
    expect(res.stdout).toBe("0.1.0\n");
    expect(
      parseOurCommand(hookCommand(`${shellQuote(process.execPath)} ${shellQuote(link)}`, "codex", "stop")),
    ).toEqual({
      client: "codex",
      event: "stop",
    });
  });
});
