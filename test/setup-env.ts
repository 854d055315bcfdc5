import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, expect } from "vitest";
import { FILE_MARK, leftoverReport, procFinder, RUN_MARK, reapLeftovers } from "./helpers/leftovers.js";
import { runAfterFile, runAfterTest } from "./helpers/per-file.js";

// Sub-agent worktrees default to $XDG_STATE_HOME; tests keep theirs out of the real home.
const state = mkdtempSync(join(tmpdir(), "tandem-test-state-"));
process.env.XDG_STATE_HOME = state;
afterAll(() => rmSync(state, { recursive: true, force: true }));

// Hooks start background remote syncs in any repository with a remote (docs/decisions/0014); most
// tests' remotes are there for pushes, not presence. The remote tests switch it on where they test it.
process.env.TANDEM_REMOTE = "0";

// `tandem init` writes Gemini CLI's allow rule into the user's Gemini policies (decision 0031):
// tests that do not name a home of their own keep it out of the real one.
const geminiHome = mkdtempSync(join(tmpdir(), "tandem-test-gemini-home-"));
process.env.GEMINI_CLI_HOME = geminiHome;
afterAll(() => rmSync(geminiHome, { recursive: true, force: true }));

// Every process this file starts carries its name (test/helpers/leftovers.ts); once the file's own
// clean-up ran (this hook was registered first, so it runs last), what is still running is ended
// and fails the file, so a timed-out client never outlives its test file.
const file = expect.getState().testPath ?? "an unknown test file";
process.env[FILE_MARK] = file;
const run = process.env[RUN_MARK];
if (run)
  afterAll(async () => {
    const left = await reapLeftovers(procFinder(run, file));
    if (left.length > 0) throw new Error(leftoverReport(left, file));
  });

// The helpers' clean-ups (test/helpers/per-file.ts), for this file whether or not its worker ran
// others before it; registered after the leftovers check, so they run before it.
afterEach(runAfterTest);
afterAll(runAfterFile);
