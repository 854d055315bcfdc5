import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

// Sub-agent worktrees default to $XDG_STATE_HOME; tests keep theirs out of the real home.
const state = mkdtempSync(join(tmpdir(), "tandem-test-state-"));
process.env.XDG_STATE_HOME = state;
afterAll(() => rmSync(state, { recursive: true, force: true }));
