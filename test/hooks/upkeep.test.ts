import { existsSync, statSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readFailureLog } from "../../src/store/failure-log.js";
import { corruptMarker } from "../../src/store/identity.js";
import { upkeepStamp } from "../../src/store/upkeep/stamp.js";
import { claudeWrite, denied, hook, ledger } from "../helpers/hooks.js";
import { patient } from "../helpers/patience.js";
import { writeFiles } from "../helpers/repo.js";
import { asB, corruptTable, twoSessions } from "../helpers/store-faults.js";

/** A store "too big" to check inline: every size is, with the threshold at 0. */
const BIG = { TANDEM_INLINE_AUDIT_BYTES: "0" };

async function until(done: () => boolean, ms = 30_000): Promise<void> {
  for (const end = Date.now() + patient(ms); !done(); ) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("session-start upkeep on a big store", () => {
  it("answers without the full check, whose background run then finds damage no gate reads and closes every gate", async () => {
    const w = await twoSessions();
    corruptTable(w.file, "subagents");
    const start = { session_id: "C", cwd: w.repo, hook_event_name: "SessionStart", source: "startup" };
    expect(hook("claude-code", "session-start", start, { cwd: w.repo, env: BIG }).code).toBe(0);
    expect(existsSync(upkeepStamp(w.stateDir))).toBe(true);
    // The background run marks the store, then logs the failure: wait for both.
    await until(() => existsSync(corruptMarker(w.stateDir)) && readFailureLog(w.stateDir).length > 0);
    expect(readFailureLog(w.stateDir).map((e) => [e.source, e.failed, e.problem])).toEqual([
      ["gc --auto", "closed", "corrupt"],
    ]);
    expect(denied(await asB(w, claudeWrite(w.repo, "B", "other.txt")))).toMatch(
      /is corrupt \(found corrupt at /,
    );
  });

  it("store.autoGc runs gc in the background from a session start, and it records what it freed", async () => {
    const w = await twoSessions();
    // A person's edit, made while no agent's call runs (decision 0070): A's Write has ended.
    const done = { ...claudeWrite(w.repo, "A", "f.txt", w.aBytes), hook_event_name: "PostToolUse" };
    expect(hook("claude-code", "post-tool-use", done, { cwd: w.repo, env: w.a }).code).toBe(0);
    writeFiles(w.repo, { ".tandem/config.jsonc": '{ "store": { "autoGc": true } }' });
    const start = { session_id: "C", cwd: w.repo, hook_event_name: "SessionStart", source: "startup" };
    expect(hook("claude-code", "session-start", start, { cwd: w.repo }).code).toBe(0);
    await until(() => ledger(w.repo).events.some((e) => e.kind === "store.gc"));
    expect(ledger(w.repo).events.find((e) => e.kind === "store.gc")?.data).toMatchObject({
      olderThanMs: 30 * 86_400_000,
    });
  });

  it("starts the background run at most once a day", async () => {
    const w = await twoSessions();
    const start = (id: string) => ({
      session_id: id,
      cwd: w.repo,
      hook_event_name: "SessionStart",
      source: "startup",
    });
    expect(hook("claude-code", "session-start", start("C"), { cwd: w.repo, env: BIG }).code).toBe(0);
    const stamp = upkeepStamp(w.stateDir);
    const first = existsSync(stamp) ? statSync(stamp).mtimeMs : null;
    expect(first).not.toBeNull();
    expect(hook("claude-code", "session-start", start("D"), { cwd: w.repo, env: BIG }).code).toBe(0);
    expect(statSync(stamp).mtimeMs).toBe(first);
  });
});
