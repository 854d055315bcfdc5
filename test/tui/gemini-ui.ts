import { spawnSync } from "node:child_process";
import { THIN_BIN } from "../helpers/cli.js";
import type { Tui } from "./driver.js";

/** Gemini shows "esc to cancel" while a turn runs, "Executing Hook" while a hook does, and a dialog while it asks. */
export const geminiIdle = (s: string) =>
  /Type your message/.test(s) && !/esc to cancel|Executing Hook|Allow execution/i.test(s);

/**
 * Types a prompt and makes sure Gemini took it: the text shows in the input first (a busy UI draws
 * it late), then the input shows its placeholder again. An Enter typed while the UI is busy can be
 * lost; it is pressed again.
 */
export async function sendToGemini(ui: Tui, text: string): Promise<void> {
  ui.type(text);
  await ui.waitFor("typed", (s) => s.includes(`> ${text}`), { timeoutMs: 60_000 });
  for (let i = 0; i < 6; i++) {
    ui.key("Enter");
    try {
      await ui.waitFor("sent", (s) => !s.slice(s.lastIndexOf("─")).includes(`> ${text}`), {
        timeoutMs: 10_000,
      });
      return;
    } catch {
      // Not taken yet: press Enter again.
    }
  }
}

/**
 * Stops the repository's resident server, which the client's hooks started with the test's HOME:
 * its wiring watch would put Gemini's user policy back into that HOME (decision 0024) while the
 * test's temporary directory is being removed.
 */
export function stopResidentServer(repo: string): void {
  const r = spawnSync(THIN_BIN, ["serve", "--stop"], { cwd: repo, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`tandem serve --stop failed (${r.status}): ${r.stderr}`);
}
