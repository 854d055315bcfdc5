import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

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
