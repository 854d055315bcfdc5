import { errorMessage } from "../errors.js";
import { type DemoState, STEPS } from "./steps.js";
import { World } from "./world.js";

export interface DemoOptions {
  bin: string;
  keep: boolean;
  out: (text: string) => void;
}

/** Runs every step in order, narrating each; true only when every step behaved as expected. */
export function runDemo(opts: DemoOptions): boolean {
  const w = new World(opts.bin);
  const state: DemoState = { subagent: null };
  let passed = 0;
  opts.out(`Tandem demo in ${w.repo} (two agent sessions, one sub-agent; no network, no agent client)\n\n`);
  try {
    w.setUp();
    STEPS.forEach((step, i) => {
      let outcome: { ok: boolean; detail: string };
      try {
        outcome = step.run(w, state);
      } catch (err) {
        outcome = { ok: false, detail: `    ${errorMessage(err)}` };
      }
      if (outcome.ok) passed++;
      opts.out(
        `${outcome.ok ? "✓" : "✗"} ${i + 1}. ${step.title}\n${outcome.detail ? `${outcome.detail}\n` : ""}\n`,
      );
    });
  } catch (err) {
    opts.out(`✗ setting up the demo failed: ${errorMessage(err)}\n`);
  } finally {
    if (opts.keep) opts.out(`The demo repository was kept: ${w.repo}\n`);
    else w.cleanUp();
  }
  const ok = passed === STEPS.length;
  opts.out(
    ok
      ? `All ${STEPS.length} steps behaved as expected.\n`
      : `${STEPS.length - passed} of ${STEPS.length} steps did not behave as expected.\n`,
  );
  return ok;
}
