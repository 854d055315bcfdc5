import { describe, expect, it } from "vitest";
import { type GuardFacts, sessionGuard } from "../../../src/core/jail/guard.js";

describe("the guard in force for a session", () => {
  const cases: [string, GuardFacts, string][] = [
    ["the default: the reader", { configured: "reader", rewrites: true, jailed: false }, "reader"],
    [
      "kernel guard, a client whose hook rewrites",
      { configured: "kernel", rewrites: true, jailed: false },
      "kernel",
    ],
    [
      "kernel guard, a client that cannot rewrite",
      { configured: "kernel", rewrites: false, jailed: false },
      "reader",
    ],
    [
      "started by tandem run, whatever the config",
      { configured: "reader", rewrites: false, jailed: true },
      "kernel",
    ],
    ["tandem run and kernel guard", { configured: "kernel", rewrites: false, jailed: true }, "kernel"],
  ];
  it.each(cases)("%s", (_what, facts, want) => expect(sessionGuard(facts)).toBe(want));
});
