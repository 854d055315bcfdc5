import { describe, expect, it } from "vitest";
import type { Printer } from "../../../src/core/printed.js";
import {
  branchesMeet,
  type LocalSide,
  leaseHolders,
  presenceHolders,
} from "../../../src/core/remote/holders.js";
import {
  type PresenceDoc,
  parsePresence,
  presenceSubstance,
  presenceText,
} from "../../../src/core/remote/presence.js";
import { remoteVerdict } from "../../../src/core/remote/verdict.js";

/** The agent reads the verdict: commands are spelled with its launcher. */
const AGENT: Printer = { reader: "agent", launcher: ".git/tandem/bin/tandem" };

const NOW = 1_800_000_000_000;
const local: LocalSide = {
  checkout: "me",
  branch: "feat",
  upstream: "origin/feat",
  targetBranches: ["main"],
};
const FRESH = { sessionMs: 600_000, documentMs: 900_000 };

function presence(
  over: Partial<PresenceDoc> = {},
  session: Partial<PresenceDoc["sessions"][0]> = {},
): PresenceDoc {
  return {
    format: 1,
    checkout: { id: "box", name: "box:/work/app" },
    published: NOW - 10_000,
    base: "abc",
    branch: "feat",
    upstream: "origin/feat",
    sessions: [
      {
        name: "agent-b",
        client: "codex",
        task: "port",
        branch: "feat",
        lastSeen: NOW - 20_000,
        claims: ["a.ts"],
        dirty: ["b.ts"],
        ...session,
      },
    ],
    ...over,
  };
}

describe("branches that meet", () => {
  it.each([
    ["the same branch", "feat", null, true],
    ["the same upstream under another name", "f2", "origin/feat", true],
    ["a target branch", "main", null, true],
    ["an unrelated branch", "other", "origin/other", false],
    ["a detached head", null, null, false],
  ])("%s: %s", (_, branch, upstream, want) => {
    expect(branchesMeet(local, branch, upstream)).toBe(want);
  });

  it("meets every branch when ours is a target branch", () => {
    expect(branchesMeet({ ...local, branch: "main" }, "anything", null)).toBe(true);
  });
});

describe("remote holders of the paths a write touches", () => {
  it("names claims and dirty paths of live sessions elsewhere, as of the document's publication", () => {
    const found = presenceHolders(["a.ts", "b.ts", "c.ts"], [presence()], local, NOW, FRESH);
    expect(found.map((h) => [h.path, h.why, h.machine, h.session, h.asOf])).toEqual([
      ["a.ts", "claim", "box:/work/app", "agent-b", NOW - 10_000],
      ["b.ts", "dirty", "box:/work/app", "agent-b", NOW - 10_000],
    ]);
  });

  it.each([
    ["its own checkout's document", presence({ checkout: { id: "me", name: "x" } })],
    ["a document older than the presence TTL", presence({ published: NOW - 900_001 })],
    ["a session silent long before its document", presence({}, { lastSeen: NOW - 10_000 - 600_001 })],
    [
      "work on a branch that will not meet ours",
      presence({ branch: "other", upstream: null }, { branch: "other" }),
    ],
  ])("ignores %s", (_, d) => {
    expect(presenceHolders(["a.ts"], [d], local, NOW, FRESH)).toEqual([]);
  });

  it("treats a document dated in the future as published now", () => {
    const [h] = presenceHolders(["a.ts"], [presence({ published: NOW + 3_600_000 })], local, NOW, FRESH);
    expect(h?.asOf).toBe(NOW);
  });

  it("names other checkouts' live leases on any branch, not its own or expired ones", () => {
    const l = (checkout: string, path: string, expires: number) => ({
      path,
      checkout,
      checkoutName: `${checkout}:/app`,
      session: null,
      task: "t",
      expires,
    });
    const found = leaseHolders(
      ["src/a.ts"],
      [l("box", "src", NOW + 1), l("me", "src/a.ts", NOW + 1), l("old", "src/a.ts", NOW - 3_600_000)],
      local,
      NOW,
    );
    expect(found.map((h) => [h.machine, h.why])).toEqual([["box:/app", "lease"]]);
  });
});

describe("the gate's answer for remote work", () => {
  const claim = presenceHolders(["a.ts"], [presence()], local, NOW, FRESH);
  const lease = [
    {
      path: "a.ts",
      why: "lease" as const,
      machine: "box:/app",
      branch: null,
      session: null,
      task: "t",
      asOf: NOW + 1,
    },
  ];

  it.each([
    ["warn", true, false, true],
    ["block", false, true, false],
    ["off", true, false, false],
  ] as const)(
    "with remoteClaims %s, a remote claim: allowed %s, refused with its holder %s, warned %s",
    (mode, allow, refused, warned) => {
      const v = remoteVerdict(claim, mode, NOW, AGENT);
      expect(v.allow).toBe(allow);
      expect((v.reason ?? "").includes("agent-b in box:/work/app on branch feat")).toBe(refused);
      expect((v.warning ?? "").includes("a.ts: being edited by agent-b")).toBe(warned);
      expect((v.warning ?? "").includes("`.git/tandem/bin/tandem conflicts` shows")).toBe(warned);
    },
  );

  it.each(["warn", "block", "off"] as const)("refuses a leased path with remoteClaims %s", (mode) => {
    const v = remoteVerdict(lease, mode, NOW, AGENT);
    expect(v.allow).toBe(false);
    expect(v.reason).toContain("a.ts: reserved in box:/app");
    expect(v.reason).toContain("`.git/tandem/bin/tandem reserve --release PATH`");
  });

  it("passes silently with no remote holders", () => {
    expect(remoteVerdict([], "block", NOW, AGENT)).toEqual({ allow: true, reason: null, warning: null });
  });
});

describe("the presence document", () => {
  it("round-trips, and its substance ignores times and path order", () => {
    const d = presence();
    expect(parsePresence(presenceText(d))).toEqual(d);
    const later = presence({ published: NOW }, { lastSeen: NOW, claims: ["a.ts"], dirty: ["b.ts"] });
    expect(presenceSubstance(later)).toBe(presenceSubstance(d));
    expect(presenceSubstance(presence({}, { claims: ["z.ts"] }))).not.toBe(presenceSubstance(d));
  });

  it("ignores a damaged document", () => {
    expect(parsePresence('{"format":1}')).toBeNull();
  });
});

describe("a document confirmed by its checkout's beat (decision 0062)", () => {
  const HOUR = 3_600_000;
  const old = (alive?: number) =>
    presence({ published: NOW - HOUR, ...(alive === undefined ? {} : { alive }) }, { lastSeen: NOW - HOUR });
  it.each([
    ["published an hour ago, no beat: gone after the TTL", undefined, false],
    ["published an hour ago, beat 10 s ago: live", NOW - 10_000, true],
    ["published an hour ago, last beat 14 min ago: live", NOW - 14 * 60_000, true],
    ["published an hour ago, last beat 16 min ago: gone (a crashed machine)", NOW - 16 * 60_000, false],
    ["a beat dated ahead of our clock counts as now", NOW + HOUR, true],
  ] as const)("%s", (_why, alive, live) => {
    expect(presenceHolders(["a.ts"], [old(alive)], local, NOW, FRESH).length > 0).toBe(live);
  });

  it("a beat is no substance: it never makes a document re-published", () => {
    expect(presenceSubstance(old(NOW))).toBe(presenceSubstance(old()));
    expect(parsePresence(presenceText(old(NOW)))?.alive).toBe(NOW);
  });
});
