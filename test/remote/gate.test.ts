import { describe, expect, it } from "vitest";
import { tandem } from "../helpers/cli.js";
import { claudeWrite, denied, fakeAgent, hook } from "../helpers/hooks.js";
import { patient } from "../helpers/patience.js";
import { bareWorld, stored } from "./remote-world.js";

// The background rounds the hooks start are what this test is about.
const ENV = { TANDEM_SERVER: "0", TANDEM_REMOTE: "1" };

function write(repo: string, session: string, file: string, env: Record<string, string>) {
  return hook("claude-code", "pre-tool-use", claudeWrite(repo, session, file), {
    cwd: repo,
    env: { ...env, ...ENV },
  });
}

function contextOf(r: { stdout: string }): string {
  if (!r.stdout.trim()) return "";
  const out = JSON.parse(r.stdout) as { hookSpecificOutput?: { additionalContext?: string } };
  return out.hookSpecificOutput?.additionalContext ?? "";
}

async function until(what: string, cond: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + patient(ms);
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("other checkouts' work at the gate", () => {
  it("publishes a claim from the hooks alone, then warns a writer in another clone, or refuses it with remoteClaims block", async () => {
    const world = bareWorld((base) => `file://${base}`);
    const [a, b] = [world.clone("a"), world.clone("b")];
    const agentA = fakeAgent();
    const agentB = fakeAgent();
    // A's hook takes the claim and starts a background round: nobody runs `tandem sync` in A.
    expect(denied(write(a, "A1", "src/x.ts", agentA))).toBeNull();
    await until("B's round sees A's claim", () => {
      tandem(["sync", "--json"], { cwd: b, env: ENV });
      return stored(b).rows.some((r) => r.doc.includes('"src/x.ts"'));
    });

    const warned = write(b, "B1", "src/x.ts", agentB);
    expect(denied(warned)).toBeNull();
    expect(contextOf(warned)).toMatch(/src\/x\.ts: being edited by agent-\w+ in .*:.*\/a on branch main/);
    expect(denied(write(b, "B1", "src/free.ts", agentB))).toBeNull();

    const refused = write(b, "B2", "src/x.ts", { ...agentB, TANDEM_REMOTE_CLAIMS: "block" });
    expect(denied(refused)).toMatch(
      /Agents in other checkouts of this repository hold these files:\n- src\/x\.ts: being edited by agent-/,
    );

    const ignored = write(b, "B1", "src/x.ts", { ...agentB, TANDEM_REMOTE_CLAIMS: "off" });
    expect(denied(ignored)).toBeNull();
    expect(contextOf(ignored)).toBe("");

    // A session starting in B is told who works elsewhere.
    const start = hook(
      "claude-code",
      "session-start",
      { session_id: "B4", cwd: b, hook_event_name: "SessionStart", source: "startup" },
      { cwd: b, env: { ...agentB, ...ENV } },
    );
    expect(contextOf(start)).toMatch(
      /Agents in other checkouts of this repository[^\n]*\n- agent-\w+ \(claude-code\) in .*\/a on main: src\/x\.ts/,
    );
  });
});
