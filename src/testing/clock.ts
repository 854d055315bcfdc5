/**
 * The test's clock for the hook path (issue 39): TANDEM_TEST_NOW, milliseconds since the epoch,
 * stands for the time of the call, so a test moves past a freshness window instead of sleeping
 * through it. Only the suite's build has it: a release build links clock-release.ts
 * (scripts/build.mjs), so no variable can move an installed Tandem's clock.
 */
export function testNow(env: Readonly<Record<string, string | undefined>>): number | undefined {
  const text = env.TANDEM_TEST_NOW;
  const ms = text ? Number(text) : Number.NaN;
  return Number.isSafeInteger(ms) && ms > 0 ? ms : undefined;
}
