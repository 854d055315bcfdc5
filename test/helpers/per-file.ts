/**
 * The clean-ups a helper module owes after each test and after each test file (temp dirs, fake
 * agents, servers, injected faults).
 *
 * A helper cannot register them as its own top-level `afterEach`/`afterAll`: where one worker runs
 * several files (`isolate: false`), a helper module is evaluated once, so its hooks would belong to
 * the first file that imported it, and every later file would leave its processes and directories
 * behind. The setup file (test/setup-env.ts) runs for every file and runs these instead.
 */
type CleanUp = () => void | Promise<void>;

const perTest: CleanUp[] = [];
const perFile: CleanUp[] = [];

/** Runs `fn` after each test of every file that uses the helper. */
export function afterEachTest(fn: CleanUp): void {
  perTest.push(fn);
}

/** Runs `fn` once each test file's tests are done. */
export function afterEachFile(fn: CleanUp): void {
  perFile.push(fn);
}

/** Last registered first, as Vitest orders after-hooks: a helper's clean-up runs before those it uses. */
async function runAll(list: readonly CleanUp[]): Promise<void> {
  for (const fn of [...list].reverse()) await fn();
}

export const runAfterTest = (): Promise<void> => runAll(perTest);
export const runAfterFile = (): Promise<void> => runAll(perFile);
