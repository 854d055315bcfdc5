import { describe, expect, it } from "vitest";
import { launcherWords } from "../../../src/clients/launcher-words.js";
import { printed, type Word } from "../../../src/core/printed.js";
import { personLauncher, printerFor } from "../../../src/core/shell/person-launcher.js";

const ROOT = "/work/proj";
const agent = { reader: "agent" as const, launcher: "'/work/my proj/.git/tandem/bin/tandem'" };
const person = { reader: "person" as const, launcher: "npx tandem" };

describe("printed: one command, every word quoted for the shell", () => {
  it.each<[string, Word[], string]>([
    [
      "plain words stay bare",
      ["recover", { path: "src/a.ts" }, "--session", "amber"],
      "npx tandem recover src/a.ts --session amber",
    ],
    [
      "a path with a space is quoted",
      ["recover", { path: "my notes.txt" }],
      "npx tandem recover 'my notes.txt'",
    ],
    [
      "a path with a newline is quoted whole",
      ["discard", { path: "a\nb" }, "--yes"],
      "npx tandem discard 'a\nb' --yes",
    ],
    ["a quote in a path is escaped", ["recover", { path: "it's.txt" }], "npx tandem recover 'it'\\''s.txt'"],
    [
      "a path with a leading dash cannot be read as an option",
      ["recover", { path: "-rf" }],
      "npx tandem recover ./-rf",
    ],
    [
      "a placeholder is printed as written",
      ["release", "--session", { slot: "NAME" }, { slot: "PATH…" }],
      "npx tandem release --session NAME PATH…",
    ],
    ["a task with shell characters", ["task", "fix $HOME & `x`"], "npx tandem task 'fix $HOME & `x`'"],
  ])("%s", (_what, words, expected) => {
    expect(printed(person, ...words)).toBe(expected);
  });

  it("an agent's launcher is used as the shell text it already is", () => {
    expect(printed(agent, "status")).toBe("'/work/my proj/.git/tandem/bin/tandem' status");
  });
});

describe("personLauncher: what a person's terminal runs", () => {
  it.each<[string, string | null, string]>([
    ["before init", null, "tandem"],
    ["a global install", "tandem", "tandem"],
    ["a devDependency", "node_modules/.bin/tandem", "npx tandem"],
    ["a devDependency written with ./", "./node_modules/.bin/tandem", "npx tandem"],
    ["npx", "npx tandem", "npx tandem"],
    [
      "a pinned launcher is itself",
      "'/usr/bin/node' '/opt/t/dist/tandem.cjs'",
      "'/usr/bin/node' '/opt/t/dist/tandem.cjs'",
    ],
    ["another project path is made absolute", "tools/tandem", "/work/proj/tools/tandem"],
  ])("%s", (_what, recorded, expected) => {
    const launcher = recorded === null ? null : { text: recorded, words: launcherWords(recorded) };
    expect(personLauncher(launcher, ROOT)).toBe(expected);
  });
});

describe("printerFor", () => {
  const facts = {
    agentLauncher: "/r/.git/tandem/bin/tandem",
    recorded: { text: "node_modules/.bin/tandem", words: ["node_modules/.bin/tandem"] },
    root: ROOT,
  };
  it.each<["agent" | "person", string]>([
    ["agent", "/r/.git/tandem/bin/tandem"],
    ["person", "npx tandem"],
  ])("%s", (reader, launcher) => {
    expect(printerFor(reader, facts)).toEqual({ reader, launcher });
  });
});
