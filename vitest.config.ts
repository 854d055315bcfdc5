import { defineConfig } from "vitest/config";
import SpreadSequencer from "./test/sequencer.js";

/**
 * Three tiers (issue 39), each with a timeout sized to catch a hang in it, never to time it: tests
 * assert behaviour, and waits inside them stretch with the machine's load (test/helpers/patience.ts).
 *
 * - unit: files that only call pure functions and build their own data. They share one process
 *   per worker instead of starting one each (a quarter-second a file). `npm run test:unit`.
 * - system: real git, real repositories, the built binary, the resident server. A worker runs many
 *   files too (a fresh process per file cost ~0.4 s of CPU each, 217 times); what a helper starts
 *   or makes is cleaned up per file through test/helpers/per-file.ts, not its own top-level hooks.
 * - clients: the real agent clients, installed into .cache/clients on first use, driven headless
 *   (test/e2e) and in tmux (test/tui), and the install from a packed tarball.
 */
const UNIT = [
  "test/core/**/*.test.ts",
  "test/targets/**/*.test.ts",
  "test/config/**/*.test.ts",
  "test/facts/**/*.test.ts",
  "test/docs/**/*.test.ts",
  "test/sessions/**/*.test.ts",
  "test/rules/**/*.test.ts",
];

const CLIENTS = [
  "test/e2e/**/*.test.ts",
  "test/tui/**/*.test.ts",
  "test/install/**/*.test.ts",
  // These install or start a real client too (Codex's trust and hook switch, a pty for watch).
  "test/doctor/doctor.test.ts",
  "test/watch/watch-pty.test.ts",
  "test/wiring/codex-trust.test.ts",
  "test/clients/codex-hooks-switch.test.ts",
];

/** What every tier shares (the root's global setup runs once, so it is not repeated here). */
const shared = {
  pool: "forks" as const,
  setupFiles: ["test/setup-env.ts"],
};

/** A tier's bound on one test and on its hooks, in seconds. */
function bounds(seconds: number): { testTimeout: number; hookTimeout: number } {
  return { testTimeout: seconds * 1000, hookTimeout: seconds * 1000 };
}

export default defineConfig({
  test: {
    // Vitest's default on a 2-core machine is one worker; most files wait on git, clients and child
    // processes rather than compute, so more overlap that waiting. Quiet full runs: 827 s with two
    // and 594 s with three (one process per file); once system workers ran many files (decision
    // 0083), 411 s with three, 340 s with four and 378 s with five (contention, and more CPU).
    maxWorkers: 4,
    globalSetup: ["test/global-setup.ts"],
    // The clients tier's files spread among the system tier's, not run before them (test/sequencer.ts).
    sequence: { sequencer: SpreadSequencer },
    projects: [
      { test: { ...shared, ...bounds(120), name: "unit", include: UNIT, isolate: false } },
      {
        test: {
          ...shared,
          ...bounds(300),
          name: "system",
          isolate: false,
          include: ["test/**/*.test.ts"],
          exclude: [...UNIT, ...CLIENTS],
        },
      },
      { test: { ...shared, ...bounds(600), name: "clients", include: CLIENTS } },
    ],
  },
});
