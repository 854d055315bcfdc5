import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { processIo } from "../../src/cli/context.js";
import { COMMANDS } from "../../src/cli/full.js";
import { LIGHT } from "../../src/cli/light.js";
import { commandWord, isLight, LIGHT_COMMANDS } from "../../src/cli/light-names.js";
import { TANDEM_BIN } from "../helpers/cli.js";
import { initRepo, tempDir } from "../helpers/repo.js";

describe("the light CLI bundle", () => {
  it.each<[string[], string | null, boolean]>([
    [["status", "--end-turn"], "status", true],
    [["--root", "/x", "task", "fix it"], "task", true],
    [["--json", "claims"], "claims", true],
    [["sub", "apply", "x"], "sub", false],
    [["--root", "status"], null, false],
    [["--help"], null, false],
    [["help", "status"], "help", false],
    [[], null, false],
  ])("%j runs %s (light: %s)", (argv, word, light) => {
    expect(commandWord(argv)).toBe(word);
    expect(isLight(argv)).toBe(light);
  });

  it("holds exactly the light commands, each defined as in the full program", () => {
    const io = processIo();
    const names = (fs: typeof LIGHT) => fs.map((f) => f(io).name());
    expect(names(LIGHT)).toEqual([...LIGHT_COMMANDS]);
    const full = new Map(COMMANDS.map((f) => [f(io).name(), f(io).helpInformation()]));
    for (const f of LIGHT) expect(f(io).helpInformation()).toBe(full.get(f(io).name()));
  });
});

describe("output into a closed pipe", () => {
  it("ends quietly with the command's exit code when the reader stops early", async () => {
    const repo = initRepo(tempDir());
    for (const args of [["--help"], ["events", "--json"]]) {
      const child = spawn(process.execPath, [TANDEM_BIN, ...args], {
        cwd: repo,
        stdio: ["ignore", "pipe", "pipe"],
      });
      child.stdout.destroy();
      let stderr = "";
      child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      expect({ args, code, stderr }).toEqual({ args, code: 0, stderr: "" });
    }
  });
});
