import { describe, expect, it } from "vitest";
import type { ClientName } from "../../src/clients/index.js";
import { CLIENT_NAMES, CLIENTS } from "../../src/clients/index.js";
import { type FilePlan, planDeinit, planInit } from "../../src/wiring/plan.js";
import type { FileState, Snapshot } from "../../src/wiring/snapshot.js";

const L = "/usr/bin/node /opt/tandem/dist/tandem.cjs";
const cmd = (client: string, event: string, launcher = L) => `${launcher} hook ${client} ${event}`;

function state(path: string, text: string | null): FileState {
  return { path, text, executable: text !== null };
}

/** A snapshot of one client's settings file (no git hooks, config present). */
function snap(client: ClientName, text: string | null): Snapshot {
  return {
    root: "/r",
    settings: { [client]: state(`/r/${client}.json`, text) },
    config: state("/r/.tandem/config.jsonc", "{}"),
    gitHooks: null,
  };
}

function settingsOf(plans: FilePlan[]): FilePlan {
  return plans.find((p) => p.kind === "settings")!;
}

function initOf(client: ClientName, text: string | null, launcher = L): FilePlan {
  return settingsOf(planInit(snap(client, text), launcher));
}

const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;
const group = (command: string, matcher?: string) => ({
  ...(matcher ? { matcher } : {}),
  hooks: [{ type: "command", command }],
});

/** Codex's group for one event as init writes it: with the status message its review shows. */
const codexGroup = (event: string, launcher = L) => {
  const e = CLIENTS.codex.events.find((w) => w.cli === event)!;
  const handler = { type: "command", command: cmd("codex", event, launcher) };
  return {
    hooks: [{ ...handler, ...(e.timeout ? { timeout: e.timeout } : {}), statusMessage: e.statusMessage }],
  };
};

describe("planning a nested settings file (Claude Code, Codex)", () => {
  it("creates the file with one group per wired event when it is absent", () => {
    const plan = initOf("codex", null);
    expect(plan.action).toBe("create");
    const doc = JSON.parse(plan.after!);
    expect(Object.keys(doc)).toEqual(["hooks"]);
    expect(Object.keys(doc.hooks)).toEqual([
      "SessionStart",
      "UserPromptSubmit",
      "PreToolUse",
      "PostToolUse",
      "Stop",
      "SessionEnd",
    ]);
    expect(doc.hooks.Stop).toEqual([codexGroup("stop")]);
    expect(doc.hooks.SessionEnd[0].hooks[0]).toEqual({
      type: "command",
      command: cmd("codex", "session-end"),
      timeout: 3,
      statusMessage: "Tandem: end this session and release its claimed files",
    });
  });

  it("names every Codex entry for its hook review and keeps SessionEnd within Codex's 3 s limit", () => {
    const doc = JSON.parse(initOf("codex", null).after!);
    const handlers = Object.values(doc.hooks).flatMap((units) =>
      (units as { hooks: { statusMessage?: string; timeout?: number }[] }[]).flatMap((u) => u.hooks),
    );
    expect(handlers).toHaveLength(6);
    for (const h of handlers) expect(h.statusMessage).toMatch(/^Tandem: \w/);
    for (const h of handlers) expect(h.timeout ?? 0).toBeLessThanOrEqual(3);
  });

  it("treats Codex entries written before they had status messages as drift, and updates them in place", () => {
    const old = {
      hooks: {
        SessionEnd: [{ hooks: [{ type: "command", command: cmd("codex", "session-end"), timeout: 5 }] }],
      },
    };
    const plan = initOf("codex", json(old));
    expect(plan.changes).toContain(
      'SessionEnd hook differs: timeout is 5, want 3; statusMessage missing (want "Tandem: end this session and release its claimed files")',
    );
    expect(JSON.parse(plan.after!).hooks.SessionEnd).toEqual([codexGroup("session-end")]);
  });

  it("gives Claude's tool hooks the write-tool matcher", () => {
    const doc = JSON.parse(initOf("claude-code", null).after!);
    expect(doc.hooks.PreToolUse).toEqual([
      group(cmd("claude-code", "pre-tool-use"), "Write|Edit|MultiEdit|NotebookEdit|Bash"),
    ]);
  });

  it("changes nothing in a file that is already current, whatever its formatting", () => {
    const created = initOf("codex", null).after!;
    const reformatted = JSON.stringify(JSON.parse(created));
    expect(initOf("codex", created)).toMatchObject({ action: "unchanged", after: created, changes: [] });
    expect(initOf("codex", reformatted)).toMatchObject({ action: "unchanged", after: reformatted });
  });

  it("updates a stale launcher in place, so Codex trust keys keep their indices", () => {
    const created = initOf("codex", null, "tandem").after!;
    const doc = JSON.parse(created);
    doc.hooks.Stop.push(group("./foreign-after-ours.sh"));
    const plan = initOf("codex", json(doc));
    expect(plan.action).toBe("update");
    expect(plan.changes).toContain(
      `Stop hook differs: command is "tandem hook codex stop", want "${cmd("codex", "stop")}"`,
    );
    const after = JSON.parse(plan.after!);
    expect(after.hooks.Stop).toEqual([codexGroup("stop"), group("./foreign-after-ours.sh")]);
  });

  it("removes duplicates, hooks of events no longer wired, and ours inside a shared group", () => {
    const doc = {
      hooks: {
        Stop: [group(cmd("codex", "stop")), group(cmd("codex", "stop", "tandem"))],
        StopFailure: [group(cmd("codex", "stop-failure"))],
        PreToolUse: [
          {
            hooks: [
              { type: "command", command: "./guard.sh" },
              { type: "command", command: cmd("codex", "pre-tool-use") },
            ],
          },
        ],
        PostToolUseFailure: [group("./foreign.sh"), group(cmd("codex", "post-tool-use-failure"))],
      },
    };
    const after = JSON.parse(initOf("codex", json(doc)).after!);
    expect(after.hooks.Stop).toEqual([codexGroup("stop")]);
    expect(after.hooks.StopFailure).toBeUndefined();
    expect(after.hooks.PreToolUse).toEqual([
      { hooks: [{ type: "command", command: "./guard.sh" }] },
      codexGroup("pre-tool-use"),
    ]);
    expect(after.hooks.PostToolUseFailure).toEqual([group("./foreign.sh")]);
  });

  it("keeps foreign groups, foreign empty groups and unrelated keys untouched", () => {
    const doc = {
      permissions: { allow: ["Bash(ls)"] },
      hooks: { Stop: [{ hooks: [] }, group("echo tandem hook codex stop --x")] },
    };
    const after = JSON.parse(initOf("claude-code", json(doc)).after!);
    // Tandem's allow rules come after the user's, which stay first.
    expect(after.permissions.allow).toEqual(["Bash(ls)", `Bash(${L} task:*)`, `Bash(${L} status:*)`]);
    expect(after.hooks.Stop.slice(0, 2)).toEqual(doc.hooks.Stop);
    expect(after.hooks.Stop).toHaveLength(3);
  });

  it.each([
    [
      "unparseable JSON",
      '{ "hooks": ',
      /^\.codex\/hooks\.json:1:12: ValueExpected; fix it or move the file aside/,
    ],
    ["a top level that is not an object", "[]", /top level is not a JSON object/],
    ["hooks that are not an object", '{"hooks": []}', /"hooks" is not an object/],
    ["an event that is not an array", '{"hooks": {"Stop": {}}}', /"hooks.Stop" is not an array/],
    [
      "a top-level key Codex rejects",
      '{"hooks": {}, "version": 1}',
      /Codex rejects the whole file because of the top-level key "version"/,
    ],
  ])("refuses %s", (_name, text, reason) => {
    const plan = initOf("codex", text);
    expect(plan.action).toBe("refuse");
    expect(plan.after).toBeNull();
    expect(plan.reason).toMatch(reason);
  });

  it("tolerates other top-level keys in Claude's file", () => {
    expect(initOf("claude-code", '{"version": 1}').action).toBe("update");
  });
});

describe("planning Cursor's flat hooks file", () => {
  it("creates version 1 with one flat entry per event and a loop limit on stop", () => {
    const doc = JSON.parse(initOf("cursor", null).after!);
    expect(doc.version).toBe(1);
    expect(doc.hooks.stop).toEqual([{ command: cmd("cursor", "stop"), loop_limit: 3 }]);
    expect(doc.hooks.beforeShellExecution).toEqual([{ command: cmd("cursor", "before-shell-execution") }]);
  });

  it("adds a missing version and keeps foreign entries", () => {
    const plan = initOf("cursor", json({ hooks: { stop: [{ command: "./notify.sh" }] } }));
    const after = JSON.parse(plan.after!);
    expect(plan.changes).toContain("version missing");
    expect(after.version).toBe(1);
    expect(after.hooks.stop).toEqual([
      { command: "./notify.sh" },
      { command: cmd("cursor", "stop"), loop_limit: 3 },
    ]);
  });

  it("refuses a version it does not write", () => {
    expect(initOf("cursor", json({ version: 2, hooks: {} })).reason).toMatch(
      /"version" is 2, but Tandem writes version 1/,
    );
  });
});

describe("planning deinit", () => {
  const deinitOf = (client: ClientName, text: string | null) => settingsOf(planDeinit(snap(client, text)));

  it("deletes a file that held nothing but our hooks", () => {
    for (const client of CLIENT_NAMES) {
      expect(deinitOf(client, initOf(client, null).after!).action, client).toBe("delete");
    }
  });

  it("restores a file to its content before init, byte for byte", () => {
    const before =
      '{\n  // ours are added below\n  "permissions": {},\n  "hooks": {\n    "Stop": [ { "hooks": [ { "type": "command", "command": "./x" } ] } ]\n  }\n}\n';
    const wired = initOf("claude-code", before).after!;
    expect(deinitOf("claude-code", wired)).toMatchObject({ action: "update", after: before });
  });

  it("keeps a file whose only remains are comments", () => {
    const wired = initOf("codex", "// team hooks go here\n{}\n").after!;
    expect(deinitOf("codex", wired).action).toBe("update");
  });

  it("keeps the project config and leaves absent files alone", () => {
    const plans = planDeinit(snap("codex", null));
    expect(plans.map((p) => p.action)).toEqual(["unchanged", "keep"]);
  });
});
