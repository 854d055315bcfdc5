import { describe, expect, it } from "vitest";
import { isLive, type LivenessFacts } from "../../../src/core/sessions/liveness.js";

const NOW = 1_000_000;
const FRESH = 600;
const ago = (s: number) => NOW - s * 1000;

describe("session liveness", () => {
  const cases: [string, LivenessFacts, boolean][] = [
    ["an ended session is never live", { lastSeen: ago(0), ended: true, processAlive: true }, false],
    [
      "a running agent keeps an old session live",
      { lastSeen: ago(3600), ended: false, processAlive: true },
      true,
    ],
    [
      "a gone agent stays live within the freshness window",
      { lastSeen: ago(60), ended: false, processAlive: false },
      true,
    ],
    [
      "a gone agent past the window is stale",
      { lastSeen: ago(601), ended: false, processAlive: false },
      false,
    ],
    [
      "an unknown agent is judged by the window",
      { lastSeen: ago(30), ended: false, processAlive: null },
      true,
    ],
    [
      "a gone UI makes the session stale within seconds, though its daemon runs",
      { lastSeen: ago(6), ended: false, processAlive: true, uiAlive: false },
      false,
    ],
    [
      "a gone UI still shows work the client keeps running while it acts",
      { lastSeen: ago(2), ended: false, processAlive: true, uiAlive: false },
      true,
    ],
    [
      "a running UI keeps an idle session live",
      { lastSeen: ago(3600), ended: false, processAlive: true, uiAlive: true },
      true,
    ],
    [
      "an unknown UI leaves the agent process rule in charge",
      { lastSeen: ago(3600), ended: false, processAlive: true, uiAlive: null },
      true,
    ],
  ];
  it.each(cases)("%s", (_name, facts, live) => {
    expect(isLive(facts, NOW, FRESH)).toBe(live);
  });

  it("never keeps a gone UI's session longer than a shorter freshness window", () => {
    expect(isLive({ lastSeen: ago(2), ended: false, processAlive: true, uiAlive: false }, NOW, 1)).toBe(
      false,
    );
  });
});
