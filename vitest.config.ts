import { defineConfig } from "vitest/config";

/**
 * Files that only call pure functions and build their own data: they share one process per worker
 * instead of starting one each (a quarter-second a file, ~80 files). Everything that drives git,
 * clients, servers or the built binary keeps a process of its own.
 */
const SHARED_PROCESS = [
  "test/core/**/*.test.ts",
  "test/targets/**/*.test.ts",
  "test/config/**/*.test.ts",
  "test/facts/**/*.test.ts",
  "test/docs/**/*.test.ts",
  "test/sessions/**/*.test.ts",
  "test/rules/**/*.test.ts",
];

/** What both projects share (the root's global setup runs once, so it is not repeated here). */
const shared = {
  // Timeouts only catch a hang: tests assert behaviour, never elapsed time, and a busy 2-core
  // machine runs the slowest real-client and git tests several times slower than a quiet one. One
  // bound for every test (none sets a shorter one); waits inside tests stretch with the machine's
  // load (test/helpers/patience.ts).
  testTimeout: 600_000,
  hookTimeout: 600_000,
  pool: "forks" as const,
  setupFiles: ["test/setup-env.ts"],
};

export default defineConfig({
  test: {
    // Vitest's default on a 2-core machine is one worker; most files wait on git, clients and child
    // processes rather than compute, so three overlap that waiting: a quiet full run took 827 s with
    // two and 594 s with three (waits stretch with load: test/helpers/patience.ts).
    maxWorkers: 3,
    globalSetup: ["test/global-setup.ts"],
    projects: [
      { test: { ...shared, name: "unit", include: SHARED_PROCESS, isolate: false } },
      { test: { ...shared, name: "system", include: ["test/**/*.test.ts"], exclude: SHARED_PROCESS } },
    ],
  },
});
