import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { THIN_BIN, tandem } from "../helpers/cli.js";
import { claudeWrite, hook } from "../helpers/hooks.js";
import { g, initRepo, tempDir, writeFiles } from "../helpers/repo.js";
import { startBoard } from "../ui/support.js";

/** Every `tandem …` command line in the README's shell blocks, in order (`npx tandem` too). */
function readmeCommands(): string[] {
  const text = readFileSync(join(process.cwd(), "README.md"), "utf8");
  const blocks = [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
  return blocks
    .flatMap((b) => b.split("\n"))
    .map((l) => l.replace(/\s+#.*$/, "").trim())
    .filter((l) => /^(npx )?tandem\b/.test(l));
}

/** Splits a README command line into argv, honouring double quotes. */
function argv(line: string): string[] {
  const words = [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
  return words[0] === "npx" ? words.slice(2) : words.slice(1);
}

describe("the README", () => {
  const commands = readmeCommands();

  it("puts the user's path first (install, init, demo) and the developers' npm ci and npm test last", () => {
    const text = readFileSync(join(process.cwd(), "README.md"), "utf8");
    const sections = text.split(/^## /m).slice(1);
    const titles = sections.map((s) => s.split("\n")[0]!);
    expect(titles.slice(0, 3)).toEqual([
      "Install",
      "Set up a repository: `tandem init`",
      "See it work: `tandem demo`",
    ]);
    expect(commands.slice(0, 2).map((c) => argv(c)[0])).toEqual(["init", "demo"]);
    // Development is the last section, and its commands are the two a contributor runs.
    expect(titles.at(-1)).toBe("Development");
    const dev = /```sh\n([\s\S]*?)```/.exec(sections.at(-1)!)![1]!.trim().split("\n");
    expect(dev.map((l) => l.split("#")[0]!.trim())).toEqual(["npm ci", "npm test"]);
  });

  it("shows every command at least once", () => {
    const shown = new Set(commands.map((c) => argv(c)[0]));
    for (const cmd of [
      "init",
      "deinit",
      "status",
      "task",
      "claims",
      "release",
      "recover",
      "sessions",
      "events",
      "doctor",
      "watch",
      "sub",
      "demo",
      "sync",
      "land",
      "reserve",
      "conflicts",
      "ui",
    ]) {
      expect(shown).toContain(cmd);
    }
    const subs = new Set(
      commands
        .map(argv)
        .filter((a) => a[0] === "sub")
        .map((a) => a[1]),
    );
    for (const cmd of ["run", "list", "show", "capture", "apply", "remove", "discard"])
      expect(subs).toContain(cmd);
  });

  it("runs every command it shows, successfully, in a prepared project", async () => {
    const repo = initRepo(join(tempDir(), "repo"), {
      "README.md": "x\n",
      Makefile: "fix:\n\techo fixed > FIXED.txt\n",
    });
    writeFiles(repo, { "src/parser.ts": "export {};\n" });
    g(repo, "add", "-A");
    g(repo, "commit", "-qm", "parser");
    // A remote to share through, as most repositories have: `tandem sync`, `reserve` and
    // `conflicts` need one (without, they say so and exit 1).
    const bare = join(repo, "..", "remote.git");
    g(repo, "init", "-q", "--bare", "-b", "main", bare);
    g(repo, "remote", "add", "origin", bare);
    g(repo, "push", "-q", "-u", "origin", "main");
    // A live agent session holding the file the README releases.
    hook("claude-code", "pre-tool-use", claudeWrite(repo, "readme-session", "src/parser.ts"), { cwd: repo });
    // Installed as the README says, so `tandem init` finds itself on PATH and wires `tandem`.
    const bin = join(repo, "..", "bin");
    mkdirSync(bin);
    symlinkSync(THIN_BIN, join(bin, "tandem"));
    // …where a login shell (an agent's shell tool) finds it too.
    const home = join(repo, "..", "home");
    mkdirSync(home);
    writeFileSync(join(home, ".profile"), `PATH="${bin}:$PATH"\n`);
    const env = { TANDEM_SESSION: "readme-session", PATH: `${bin}:/usr/bin:/bin`, HOME: home };
    for (const line of commands) {
      // The browser board serves until stopped: it must come up and print its URL (test/ui tests the rest).
      if (argv(line)[0] === "ui") {
        await (await startBoard(repo, argv(line).slice(1), env)).stop();
        continue;
      }
      const r = tandem(argv(line), { cwd: repo, env });
      expect({ line, code: r.code, err: r.stderr }).toMatchObject({ line, code: 0 });
      // doctor reports an unwired repository as a problem: wire it again for the commands after deinit.
      if (line.startsWith("tandem deinit")) tandem(["init", "--clients", "claude-code"], { cwd: repo, env });
    }
  });
});
