import { describe, expect, it } from "vitest";
import {
  type ClaimStamp,
  type CleanFact,
  claimKey,
  isClean,
  takeoverCandidates,
  withTrustedClean,
} from "../../../src/core/claims/clean-takeover.js";
import {
  CLEAN_TAKEOVER_GRACE_MS,
  type ClaimTarget,
  type HeldClaim,
  type Holder,
} from "../../../src/core/claims/decide.js";

const NOW = 1_000_000_000;
const WT = "/repo";
const OLD = NOW - CLEAN_TAKEOVER_GRACE_MS;
const holder = (id: string, over: Partial<Holder> = {}): Holder => ({
  id,
  name: `agent-${id}`,
  client: "codex",
  task: null,
  lastSeen: NOW,
  live: true,
  group: id,
  ...over,
});
const held = (path: string, h: Holder, acquiredAt = OLD): HeldClaim => ({
  worktree: WT,
  path,
  holder: h,
  acquiredAt,
  clean: null,
});
const target = (path: string): ClaimTarget => ({
  raw: path,
  worktree: WT,
  path,
  disposition: "git",
  root: WT,
});

describe("which claims are worth a git status before the lock", () => {
  const me = { id: "me", group: "me" };
  it.each([
    ["a live peer's old claim on the target", held("f.txt", holder("p")), me, true],
    ["a claim still inside its grace period", held("f.txt", holder("p"), OLD + 1), me, false],
    ["a stale peer's claim (taken over anyway)", held("f.txt", holder("p", { live: false })), me, false],
    ["the caller's own claim", held("f.txt", holder("me")), me, false],
    ["a claim of the caller's group", held("f.txt", holder("sub", { group: "me" })), me, false],
    ["a claim on another path", held("g.txt", holder("p")), me, false],
    ["a directory claim that does not hold the target", held("src", holder("p")), me, false],
    ["a peer's claim when the caller has no session yet", held("f.txt", holder("p")), null, true],
  ] as const)("%s: %s", (_name, claim, caller, expected) => {
    const targets = [target(claim.path === "src" ? "lib/x.ts" : "f.txt")];
    expect(takeoverCandidates([claim], targets, caller, NOW)).toEqual(expected ? [claim] : []);
  });
});

describe("a clean path", () => {
  it.each([
    ["f.txt", [], true],
    ["f.txt", ["f.txt"], false],
    ["src", ["src/a.ts"], false],
    ["src", ["srcx/a.ts"], true],
    [".", [], false],
  ] as const)("%s with dirty %j is clean: %s", (path, dirty, clean) => {
    expect(isClean(path, dirty)).toBe(clean);
  });
});

describe("inside the transaction, a git status answer counts only for the holding it was asked for", () => {
  const claim = held("f.txt", holder("p"));
  const stamp: ClaimStamp = { holder: "p", acquiredSeq: 7, holderSeq: 9 };
  const fact = (over: Partial<CleanFact> = {}): CleanFact => ({ ...stamp, clean: true, ...over });
  it.each([
    ["unchanged since", stamp, fact(), true],
    ["found dirty", stamp, fact({ clean: false }), false],
    ["re-acquired since (a new claim.acquired)", { ...stamp, acquiredSeq: 12 }, fact(), null],
    ["taken by another session since", { ...stamp, holder: "q" }, fact(), null],
    ["the holder recorded something since", { ...stamp, holderSeq: 10 }, fact(), null],
    ["released since", undefined, fact(), null],
    ["never asked", stamp, undefined, null],
  ] as const)("%s: clean is %s", (_name, now, gathered, expected) => {
    const stamps = new Map(now ? [[claimKey(claim), now]] : []);
    const facts = new Map(gathered ? [[claimKey(claim), gathered]] : []);
    const [judged] = withTrustedClean([claim], stamps, facts);
    expect(judged!.clean).toBe(expected);
    expect(claim.clean).toBeNull(); // the loaded claims are not mutated
  });
});
