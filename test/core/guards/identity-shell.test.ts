import { describe, expect, it } from "vitest";
import { shellIdentity } from "../../../src/core/guards/identity-shell.js";

const VARIABLES = ["TANDEM_SESSION", "CLAUDE_CODE_SESSION_ID", "CODEX_THREAD_ID", "GEMINI_SESSION_ID"];
/** A live peer, as the hook lists it: every word that names it. The caller itself is never listed. */
const OTHERS = [{ name: "agent-a", refs: ["agent-a", "A-native-uuid", "s_a"] }];

const verdict = (command: string) => shellIdentity({ command, variables: VARIABLES, others: OTHERS });

describe("a shell command that sets another live session's identity", () => {
  const refused: [string, string][] = [
    ["a prefix assignment", "TANDEM_SESSION=agent-a tandem release f.txt"],
    ["an export", "export TANDEM_SESSION=agent-a; tandem release f.txt"],
    ["env", "env TANDEM_SESSION=A-native-uuid tandem task x"],
    ["the internal id", "TANDEM_SESSION=s_a tandem status --end-turn"],
    ["a client's own variable", "CLAUDE_CODE_SESSION_ID=A-native-uuid tandem release f.txt"],
    ["quotes splitting the variable", `env "TANDEM_SESS""ION=agent-a" tandem release f.txt`],
    ["quotes splitting the name", "TANDEM_SESSION=ag''ent-a tandem release f.txt"],
    ["the name set aside first", "S=agent-a; TANDEM_SESSION=$S tandem release f.txt"],
    [
      "a Python child's environment",
      `python3 -c "import os, subprocess; os.environ['TANDEM_SESSION'] = 'agent-a'; subprocess.run(['tandem', 'release', 'f.txt'])"`,
    ],
    [
      "a Node child's environment",
      `node -e 'require("child_process").spawnSync("tandem", ["release", "f.txt"], { env: { ...process.env, TANDEM_SESSION: "agent-a" } })'`,
    ],
    [
      "the serialized tool input a client sends",
      JSON.stringify({ command: `TANDEM_SESSION="agent-a" tandem release f.txt`, description: "x" }),
    ],
  ];
  it.each(refused)("is refused: %s", (_what, command) => {
    const v = verdict(command);
    expect(v.allow).toBe(false);
    if (!v.allow) expect(v.claimed).toBe("agent-a");
  });

  const allowed: [string, string][] = [
    ["naming the caller itself", "TANDEM_SESSION=agent-b tandem status"],
    ["naming no live session", "TANDEM_SESSION=agent-gone tandem task x"],
    ["reading the variable", "echo $TANDEM_SESSION"],
    ["naming the peer without a variable", "tandem claims | grep agent-a"],
    ["a longer word that only contains the name", "TANDEM_SESSION=agent-ab tandem status"],
  ];
  it.each(allowed)("is allowed: %s", (_what, command) => {
    expect(verdict(command)).toEqual({ allow: true });
  });

  it("says which variable named whom and what to run instead", () => {
    const v = verdict("TANDEM_SESSION=agent-a tandem release f.txt");
    expect(v.allow ? "" : v.reason).toMatch(
      /sets TANDEM_SESSION to name agent-a, another live session\. .*run `tandem` commands without TANDEM_SESSION/,
    );
  });
});
