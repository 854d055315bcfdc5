import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { logFailure } from "../../src/store/failure-log.js";
import { readIdentity } from "../../src/store/identity.js";
import { claudeWrite, denied, hook, ledger } from "../helpers/hooks.js";
import {
  asB,
  canMakeReadOnly,
  corruptTable,
  doctorHere as doctor,
  foreignStore,
  makeReadOnly,
  twoSessions,
} from "../helpers/store-faults.js";

interface Report {
  reset?: string[];
  findings: { level: string; check: string; detail: string; fix?: string }[];
}

const json = async (repo: string, ...args: string[]): Promise<Report> =>
  JSON.parse((await doctor(repo, "--json", ...args)).stdout) as Report;
const problems = (r: Report) => r.findings.filter((f) => f.level === "problem");

describe("tandem doctor on the store", () => {
  it("reports a replaced store, and --reset keeps the foreign file aside, starts a new store and records it", async () => {
    const w = await twoSessions();
    const foreign = await foreignStore();
    rmSync(w.file);
    copyFileSync(foreign, w.file);
    const before = readIdentity(w.stateDir) as { id: number };
    expect(problems(await json(w.repo))).toEqual([
      expect.objectContaining({
        check: "store",
        detail: expect.stringMatching(/was replaced by a different store .*expected store \d+/),
        fix: expect.stringMatching(/put this repository's own state\.db back .* doctor --reset/),
      }),
    ]);

    const r = await doctor(w.repo, "--reset");
    // This repository never ran `tandem init`, which doctor reports too; the store itself is fine now.
    expect(r.stdout).not.toMatch(/✗ (store|integrity|writable|schema)/);
    expect(r.stdout).toMatch(
      /^reset: the store was replaced by a different store .*: moved its files to .*aside-/m,
    );
    expect(r.stdout).toMatch(
      /^reset: started a new store \d+ at .*state\.db and recorded its identity in .*tandem\.store-id/m,
    );
    const aside = readdirSync(w.stateDir).find((f) => f.startsWith("aside-"))!;
    expect(readFileSync(join(w.stateDir, aside, "state.db")).equals(readFileSync(foreign))).toBe(true);

    const after = readIdentity(w.stateDir) as { id: number };
    expect(after.id).not.toBe(before.id);
    const db = new Database(w.file, { readonly: true });
    expect(db.pragma("application_id", { simple: true })).toBe(after.id);
    db.close();
    const [first] = ledger(w.repo).events;
    expect(first).toMatchObject({
      kind: "store.reset",
      data: { previousId: before.id, newId: after.id, movedTo: join(w.stateDir, aside) },
    });
  });

  it("--reset on a healthy store with nothing recorded changes nothing and says so", async () => {
    const w = await twoSessions();
    const files = readdirSync(w.stateDir);
    const r = await json(w.repo, "--reset");
    expect(r.reset).toEqual([expect.stringMatching(/nothing to reset/)]);
    expect(problems(r)).toEqual([]);
    expect(readdirSync(w.stateDir)).toEqual(files);
    expect(denied(await asB(w, claudeWrite(w.repo, "B", "f.txt")))).toMatch(/held by/);
  });

  it.runIf(canMakeReadOnly())(
    "--reset refuses a store it cannot fix (an unwritable directory) and moves nothing",
    async () => {
      const w = await twoSessions();
      makeReadOnly(w.stateDir);
      const r = await doctor(w.repo, "--reset");
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /cannot reset: .*cannot be opened .*which a new store would not fix; .*writable by this user/,
      );
      expect(existsSync(w.file)).toBe(true);
    },
  );

  it("damage found by the integrity check closes every gate, not only those that read it", async () => {
    const w = await twoSessions();
    corruptTable(w.file, "touched");
    expect(denied(await asB(w, claudeWrite(w.repo, "B", "free.txt")))).toBeNull();
    const report = await json(w.repo);
    expect(problems(report)).toEqual([
      expect.objectContaining({ check: "integrity", fix: expect.stringMatching(/ doctor --reset/) }),
    ]);
    expect(denied(await asB(w, claudeWrite(w.repo, "B", "free2.txt")))).toMatch(
      /is corrupt \(found corrupt at .*integrity check/,
    );
  });

  it("notes, not fails, the server's upkeep skipped while another process held the lock", async () => {
    const w = await twoSessions();
    const entry = {
      ts: new Date().toISOString(),
      source: "tandem serve",
      session: null,
      failed: "open" as const,
    };
    logFailure(w.stateDir, {
      ...entry,
      problem: "locked",
      message: "pruning old requests: the store is locked",
    });
    const report = await json(w.repo);
    expect(problems(report)).toEqual([]);
    expect(report.findings.find((f) => f.check === "server upkeep")?.detail).toMatch(
      /^the resident server skipped 1 upkeep step\(s\) while another process held the store's lock/,
    );
    // Any other failure of the server is still a problem.
    logFailure(w.stateDir, { ...entry, problem: "error", message: "a task after an answer: boom" });
    expect(problems(await json(w.repo)).map((f) => f.check)).toEqual(["hook failures"]);
  });

  it("reports recorded hook failures with their fix until --reset acknowledges them, keeping the log", async () => {
    const w = await twoSessions();
    rmSync(w.file);
    await asB(w, claudeWrite(w.repo, "B", "f.txt"));
    const prompt = { session_id: "B", cwd: w.repo, hook_event_name: "UserPromptSubmit", prompt: "go" };
    await asB(w, prompt, "user-prompt-submit");
    const recorded = problems(await json(w.repo)).find((f) => f.check === "hook failures")!;
    expect(recorded.detail).toMatch(
      /^2 hook call\(s\) failed because the store has disappeared \(1 refused\); last at .* in hook claude-code user-prompt-submit/,
    );
    expect(recorded.fix).toMatch(/ doctor --reset/);

    const r = await json(w.repo, "--reset");
    expect(r.reset).toEqual([
      expect.stringMatching(/has disappeared .*acknowledged its loss/),
      expect.stringMatching(/started a new store/),
      expect.stringMatching(/acknowledged the recorded hook failures \(kept as .*hook-errors\.log\./),
    ]);
    expect(problems(r)).toEqual([]);
    expect(readdirSync(w.stateDir).filter((f) => f.startsWith("hook-errors.log."))).toHaveLength(1);
    expect(
      denied(hook("claude-code", "pre-tool-use", claudeWrite(w.repo, "A", "g.txt"), { cwd: w.repo })),
    ).toBeNull();
  });
});
