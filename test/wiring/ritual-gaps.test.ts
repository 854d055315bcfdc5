import { describe, expect, it } from "vitest";
import { ritualGaps } from "../../src/wiring/ritual-gaps.js";

describe("where the ritual would still fail or prompt after init", () => {
  it.each<[string, string, string, string[], RegExp | null]>([
    ["a PATH launcher agents run", "tandem", "tandem", ["claude-code", "codex"], null],
    [
      "the repository launcher, named by this clone's rules",
      "tandem",
      "/r/.git/tandem/bin/tandem",
      ["codex"],
      null,
    ],
    [
      "a devDependency's absolute path",
      "node_modules/.bin/tandem",
      "/r/node_modules/.bin/tandem",
      ["codex"],
      null,
    ],
    [
      "a launcher Codex's rule cannot spell, with Codex wired",
      '"$HOME/bin/tandem"',
      '"$HOME/bin/tandem"',
      ["codex"],
      /no Codex rule can name `"\$HOME\/bin\/tandem"`.*ritual fails every turn; re-run `tandem init --command tandem`/,
    ],
    ["the same launcher without Codex", '"$HOME/bin/tandem"', '"$HOME/bin/tandem"', ["claude-code"], null],
    [
      "a command substitution Claude never auto-allows",
      "$(which tandem)",
      "$(which tandem)",
      ["claude-code"],
      /Claude Code never auto-allows .* asks for approval every turn/,
    ],
  ])("%s", (_name, launcher, agent, clients, want) => {
    const gaps = ritualGaps(launcher, agent, clients as never);
    if (want === null) expect(gaps).toEqual([]);
    else expect(gaps.join("\n")).toMatch(want);
  });
});
