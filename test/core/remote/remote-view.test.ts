import { describe, expect, it } from "vitest";
import type { Printer } from "../../../src/core/printed.js";
import type { Lease } from "../../../src/core/remote/leases.js";
import { PRESENCE_FORMAT, type PresenceDoc } from "../../../src/core/remote/presence.js";
import {
  leaseLine,
  type RemoteViewInput,
  remoteView,
  splitSyncError,
  unknownLine,
} from "../../../src/core/remote/remote-view.js";

const NOW = 1_800_000_000_000;
/** A devDependency's person reads the views: their terminal starts Tandem with npx. */
const PERSON: Printer = { reader: "person", launcher: "npx tandem" };
const MIN = 60_000;

function doc(id: string, published = NOW - MIN, lastSeen = published): PresenceDoc {
  return {
    format: PRESENCE_FORMAT,
    checkout: { id, name: `box:/${id}` },
    published,
    base: null,
    branch: "main",
    upstream: "origin/main",
    sessions: [
      {
        name: `agent-${id}`,
        client: "codex",
        task: "t",
        branch: null,
        lastSeen,
        claims: ["a.ts"],
        dirty: [],
      },
    ],
  };
}

const lease = (path: string, checkout: string, expires = NOW + 60 * MIN): Lease => ({
  path,
  checkout,
  checkoutName: `box:/${checkout}`,
  session: null,
  task: null,
  expires,
});

function input(over: Partial<RemoteViewInput> = {}): RemoteViewInput {
  return {
    enabled: true,
    hasRemote: true,
    docs: [doc("me"), doc("other")],
    leases: [lease("b.ts", "other"), lease("a.ts", "me"), lease("old.ts", "other", NOW - 10 * MIN)],
    sync: { remote: "origin", lastAttempt: NOW - MIN, lastSuccess: NOW - MIN, lastError: null },
    self: "me",
    now: NOW,
    intervalMs: 30_000,
    fresh: { sessionMs: 600_000, documentMs: 15 * MIN },
    printer: PERSON,
    ...over,
  };
}

const failed = { remote: "origin", lastAttempt: NOW - MIN, lastSuccess: NOW - 9 * MIN };

describe("the state of remote presence", () => {
  it.each<[string, Partial<RemoteViewInput>, string, string | null]>([
    ["a round a minute ago", {}, "ok", null],
    ["remote.enabled false", { enabled: false }, "off", null],
    ["no remote at all", { hasRemote: false }, "no-remote", null],
    ["a remote but no round yet", { sync: null }, "never", "no sync round has run yet"],
    [
      "a last round that failed",
      { sync: { ...failed, lastError: "fatal: unable to access\nfix it so." } },
      "failed",
      "fatal: unable to access",
    ],
    [
      "no round for 3 minutes (more than 4 intervals)",
      { sync: { remote: "origin", lastAttempt: NOW - 3 * MIN, lastSuccess: NOW - 3 * MIN, lastError: null } },
      "stale",
      "no sync round for 3m",
    ],
    [
      "a round dated in the future (clock set back)",
      {
        sync: { remote: "origin", lastAttempt: NOW + 60 * MIN, lastSuccess: NOW + 60 * MIN, lastError: null },
      },
      "ok",
      null,
    ],
  ])("%s: %s", (_why, over, state, error) => {
    const v = remoteView(input(over));
    expect(v.state).toBe(state);
    expect(v.unknown?.error ?? null).toBe(error);
  });

  it("keeps the time of the last success and the stored fix of a failed round", () => {
    const v = remoteView(input({ sync: { ...failed, lastError: "git push: denied\nallow refs/tandem/*." } }));
    expect(v.unknown).toEqual({
      since: NOW - 9 * MIN,
      error: "git push: denied",
      fix: "allow refs/tandem/*.",
    });
  });
});

describe("what the views list", () => {
  it("lists other checkouts' live sessions and every live lease, marking this checkout's own", () => {
    const v = remoteView(input());
    expect(v.checkouts).toBe(1);
    expect(v.sessions.map((s) => [s.name, s.machine, s.paths])).toEqual([
      ["agent-other", "box:/other", ["a.ts"]],
    ]);
    expect(v.leases.map((l) => [l.path, l.mine])).toEqual([
      ["a.ts", true],
      ["b.ts", false],
    ]);
  });

  it("drops documents older than the presence TTL and sessions not seen lately", () => {
    const docs = [doc("old", NOW - 20 * MIN), doc("quiet", NOW - MIN, NOW - 30 * MIN), doc("fresh")];
    expect(remoteView(input({ docs })).sessions.map((s) => s.name)).toEqual(["agent-fresh"]);
  });

  it("shows nothing when sharing is off or there is no remote, whatever is stored", () => {
    for (const over of [{ enabled: false }, { hasRemote: false }]) {
      const v = remoteView(input(over));
      expect([v.sessions, v.leases, v.checkouts, v.unknown]).toEqual([[], [], 0, null]);
    }
  });

  it("treats everything as another checkout's before this one has an id", () => {
    const v = remoteView(input({ self: null }));
    expect(v.sessions).toHaveLength(2);
    expect(v.leases.every((l) => !l.mine)).toBe(true);
  });
});

describe("lines", () => {
  it("says since when presence is unknown, on one line, or that no round ever succeeded", () => {
    const u = { since: NOW - 5 * MIN, error: "fatal: could not read\n  from remote", fix: "f" };
    expect(unknownLine(u, NOW)).toBe(
      `remote presence unknown since ${new Date(NOW - 5 * MIN).toISOString().replace(/\.\d+Z$/, "Z")} (5m ago): fatal: could not read from remote`,
    );
    expect(unknownLine({ ...u, since: null }, NOW)).toBe(
      "remote presence unknown: fatal: could not read from remote",
    );
  });

  it("names a lease's holder, or this checkout", () => {
    expect(leaseLine({ ...lease("x.ts", "o"), task: "port", mine: false })).toMatch(
      /^x\.ts reserved by box:\/o for "port" until \d{4}-/,
    );
    expect(leaseLine({ ...lease("x.ts", "me"), mine: true })).toMatch(
      /^x\.ts reserved by this checkout until/,
    );
  });

  it("takes the fix from the last line of the stored error", () => {
    expect(splitSyncError("a\nb\nthe fix.", PERSON)).toEqual({ error: "a\nb", fix: "the fix." });
    expect(splitSyncError("only words", PERSON).fix).toContain("run `npx tandem sync`");
  });
});
