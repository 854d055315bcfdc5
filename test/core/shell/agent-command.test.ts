import { describe, expect, it } from "vitest";
import { type AgentCommandFacts, agentCommand } from "../../../src/core/shell/agent-command.js";

const PINNED = "/usr/bin/node /opt/tandem/dist/tandem.cjs";
const REPO = "/work/proj/.git/tandem/bin/tandem";
const facts = (over: Partial<AgentCommandFacts>): AgentCommandFacts => ({
  launcher: "tandem",
  root: "/work/proj",
  pinned: PINNED,
  repoLauncher: null,
  loginWorks: null,
  ...over,
});

describe("agentCommand", () => {
  it.each<[string, Partial<AgentCommandFacts>, string]>([
    ["a global install that a login shell finds stays bare", { loginWorks: true }, "tandem"],
    ["never probed: the recorded launcher as it is", {}, "tandem"],
    ["no record at all: bare tandem", { launcher: null }, "tandem"],
    [
      "a login shell cannot find it: the repository launcher init wrote",
      { loginWorks: false, repoLauncher: REPO },
      REPO,
    ],
    [
      "…quoted when its path needs it",
      { loginWorks: false, repoLauncher: "/my proj/.git/tandem/bin/tandem" },
      "'/my proj/.git/tandem/bin/tandem'",
    ],
    [
      "…and a devDependency that fails there too",
      { launcher: "node_modules/.bin/tandem", loginWorks: false, repoLauncher: REPO },
      REPO,
    ],
    [
      "a login shell works: never the repository launcher",
      { loginWorks: true, repoLauncher: REPO },
      "tandem",
    ],
    ["before init wrote one: this machine's Tandem", { loginWorks: false }, PINNED],
    ["…unless nothing pinned is known", { loginWorks: false, pinned: null }, "tandem"],
    [
      "a devDependency is made absolute, so a `cd` in the agent's shell does not break it",
      { launcher: "node_modules/.bin/tandem", loginWorks: true },
      "/work/proj/node_modules/.bin/tandem",
    ],
    [
      "a root with a space is quoted",
      { launcher: "node_modules/.bin/tandem", root: "/my proj" },
      "'/my proj/node_modules/.bin/tandem'",
    ],
    ["a pinned launcher is used as written", { launcher: PINNED, loginWorks: true }, PINNED],
    ["npx keeps its words", { launcher: "npx tandem", loginWorks: true }, "npx tandem"],
  ])("%s", (_, over, want) => {
    expect(agentCommand(facts(over))).toBe(want);
  });
});
