import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { RULE_IDS, type VerdictRule } from "../../../src/clients/rule-ids.js";
import type { ClaimDecision, Holder } from "../../../src/core/claims/decide.js";
import type { LeftItem } from "../../../src/core/claims/left-work.js";
import type { RemoteHolder } from "../../../src/core/remote/holders.js";
import { sessionStartContext } from "../../../src/core/ritual/start-context.js";
import { renderStatusBox, type StatusModel } from "../../../src/core/ritual/status-box.js";
import { RULES, type RuleInput, refusal, ruleText, uncatalogued } from "../../../src/core/rules/catalog.js";

/** Tuesday 2 December 2025, 10:00 UTC: every age below is measured from it. */
const NOW = Date.UTC(2025, 11, 2, 10, 0, 0);
const MIN = 60_000;
const AGENT = { reader: "agent", launcher: "./tandem" } as const;

const ada: Holder = {
  id: "s-ada",
  name: "ada",
  client: "claude-code",
  task: "rename the parser",
  lastSeen: NOW - 2 * MIN,
  live: true,
  group: "s-ada",
};
const bo: Holder = { ...ada, id: "s-bo", name: "bo", client: "codex", task: null, lastSeen: NOW - 40_000 };

const target = (path: string) => ({
  worktree: "/work/app",
  path,
  raw: path,
  disposition: "git" as const,
  root: "/work/app",
});
const held = (path: string, holder: Holder) => ({
  worktree: "/work/app",
  path,
  holder,
  acquiredAt: NOW - 5 * MIN,
  clean: false,
});

const conflict: Extract<ClaimDecision, { allow: false }> = {
  allow: false,
  refused: [],
  conflicts: [
    { target: target("src/parse.ts"), claim: held("src/parse.ts", ada) },
    { target: target("src/lex/token.ts"), claim: held("src/lex", bo) },
  ],
};
const wiring: Extract<ClaimDecision, { allow: false }> = {
  allow: false,
  conflicts: [],
  refused: [
    {
      raw: ".claude/settings.json",
      rule: "protected-wiring",
      reason:
        "Tandem's hook wiring for Claude Code: only a person edits it (set TANDEM_ALLOW_WIRING_EDIT=1 in their own shell)",
    },
  ],
};
const left: LeftItem[] = [
  {
    path: "src/cache.ts",
    hold: "session_end",
    owner: {
      id: "s-cy",
      name: "cy",
      client: "gemini-cli",
      task: "cache warmup",
      live: false,
      ended: true,
      at: NOW - 90 * MIN,
    },
  },
];
const remote: RemoteHolder[] = [
  {
    path: "src/api.ts",
    why: "lease",
    machine: "lin@build-2",
    branch: "main",
    session: "dee",
    task: "api v2",
    asOf: NOW + 3_600_000,
  },
  {
    path: "src/db.ts",
    why: "claim",
    machine: "mac@home",
    branch: "feat/db",
    session: null,
    task: null,
    asOf: NOW - 3 * MIN,
  },
];
const ritual = { requireGitFinalization: true, agentCmd: "./tandem", marked: false };

/** One realistic input per rule: the catalog's builder runs over it as the hook's gate would. */
const INPUTS: { [R in VerdictRule]: RuleInput<R> } = {
  "hook-call": { agentCmd: "./tandem" },
  identity: { variable: "TANDEM_SESSION", claimed: "ada" },
  "tandem-refs": { pushes: ["refs/tandem/presence/mac-home"], printer: AGENT },
  "tandem-state": {
    refused: [{ raw: ".git/tandem/ledger.db", rule: "tandem-state", reason: "Tandem's store (its ledger)" }],
    agentCmd: "./tandem",
  },
  "other-worktree": {
    findings: [{ raw: "../app-feat/src/x.ts", worktree: "/work/app-feat", path: "src/x.ts", holder: bo }],
    now: NOW,
  },
  "git-impact": {
    findings: [
      { command: "git checkout -- src", path: "src/parse.ts", holder: ada, effect: "overwrite" },
      { command: "git commit -am wip", path: "src/lex/token.ts", holder: bo, effect: "commit" },
    ],
    now: NOW,
  },
  "remote-claim": { holders: remote, now: NOW, printer: AGENT },
  "left-work": { items: left, now: NOW, printer: AGENT },
  "claim-conflict": { decision: conflict, now: NOW },
  "line-conflict": {
    lines: [
      {
        raw: "src/schema.ts",
        margin: 3,
        overlaps: [
          { owner: "s-ada", name: "ada", first: 40, last: 52, drops: false },
          { owner: "s-bo", name: "bo", first: 90, last: 90, drops: true },
        ],
      },
    ],
    held: conflict.conflicts.slice(0, 1),
    now: NOW,
  },
  "protected-wiring": { decision: wiring, now: NOW },
  "kernel-guard": {
    detail: "the kernel jail cannot be set up here (unprivileged user namespaces are off)",
    fix: "`sysctl -w kernel.unprivileged_userns_clone=1` as root",
  },
  "forged-hook": { named: "ada", by: "bo", printer: AGENT },
  "store-busy": {
    detail:
      ".git/tandem/ledger.db is locked by another process: SQLITE_BUSY; held past the 5 s agents.storeLockSeconds allows (this call waited 5 s)",
  },
  "store-unavailable": {
    detail: ".git/tandem/ledger.db is not a database: file is not a database",
    doctor: "`tandem doctor`",
  },
  "disk-full": {
    detail:
      "Tandem's store .git/tandem/state.db cannot be read or written: the disk it is on is full (SQLITE_FULL: database or disk is full).",
    gc: "`tandem gc`",
  },
  "internal-error": {
    failure: "EACCES: permission denied, open '/work/app/.tandem/config.jsonc'",
    doctor: "`tandem doctor`",
  },
  "server-interrupted": {},
  status: { ...ritual, missing: ["status"] },
  task: { ...ritual, missing: ["task", "status"], marked: true },
  "status-box": { ...ritual, missing: ["status-box"], requireGitFinalization: false },
};

const text = <R extends VerdictRule>(rule: R) => ruleText(rule, INPUTS[rule]);

describe("the rule catalog", () => {
  it("has exactly one entry per rule id, each with a doc that exists", () => {
    expect(Object.keys(RULES).sort()).toEqual([...RULE_IDS].sort());
    for (const id of RULE_IDS) {
      const [file, section] = RULES[id].doc.split(" §");
      expect(existsSync(file!), `${id}: ${file}`).toBe(true);
      // A section anchor names a heading of that doc ("§4.3" → "### 4.3 …").
      if (section)
        expect(readFileSync(file!, "utf8")).toMatch(
          new RegExp(`^#+ ${section.replace(".", "\\.")}\\.? `, "m"),
        );
    }
  });

  it("finds a rule a registry names that a copy of the catalog lacks", () => {
    const copy: Record<string, unknown> = { ...RULES };
    delete copy["git-impact"];
    expect(uncatalogued(["hook-call", "git-impact"], copy)).toEqual(["git-impact"]);
    expect(uncatalogued([...RULE_IDS])).toEqual([]);
  });

  it("builds a refusing verdict from the rule and its facts", () => {
    expect(refusal("hook-call", INPUTS["hook-call"])).toEqual({
      allow: false,
      rule: "hook-call",
      reason: text("hook-call"),
    });
  });
});

describe("the text the model reads, per rule", () => {
  it("hook-call", () => {
    expect(text("hook-call")).toMatchInlineSnapshot(
      `"Tandem refused this command before it ran: it calls \`tandem hook\` (or \`tandem git-hook\`), which only an agent client runs; from a shell it would speak for a session it is not. Use \`./tandem status\`, \`./tandem task\` or \`./tandem release PATH\` for your own session."`,
    );
  });
  it("identity", () => {
    expect(text("identity")).toMatchInlineSnapshot(
      `"Tandem refused this command before it ran: it sets TANDEM_SESSION to name ada, another live session. An agent acts only as itself: Tandem finds your session from your own process, so run \`tandem\` commands without TANDEM_SESSION. To change what ada holds, ask ada's agent or a person."`,
    );
  });
  it("tandem-refs", () => {
    expect(text("tandem-refs")).toMatchInlineSnapshot(`
      "Tandem refused this command before it ran; nothing was changed.
      - refs/tandem/presence/mac-home
      refs/tandem/* on the remote hold every clone's presence and reservations: deleting or rewriting them lets another clone take paths this one holds.
      What to do: push your branches only (\`git push origin <branch>\`); reservations are changed with \`./tandem reserve PATH\` / \`./tandem reserve --release PATH\`. If the refs really must change, ask the user to do it themselves."
    `);
  });
  it("tandem-state", () => {
    expect(text("tandem-state")).toMatchInlineSnapshot(`
      "Tandem refused this command before it ran; nothing was changed.
      - .git/tandem/ledger.db: Tandem's store (its ledger)
      What to do: leave Tandem's store to Tandem. To free space run \`./tandem gc\`; to look at preserved copies run \`./tandem recover --list\`; to check the store run \`./tandem doctor\`. If the store really must go, ask the user to remove it themselves."
    `);
  });
  it("other-worktree", () => {
    expect(text("other-worktree")).toMatchInlineSnapshot(`
      "Tandem refused this command before it ran; nothing was changed.
      ../app-feat/src/x.ts is in another worktree where a live agent is working (/work/app-feat):
      - src/x.ts: bo's work (codex, no task declared, last seen 40s ago)
      What to do: work in your own checkout; leave that worktree alone until bo has finished and committed (their session ends), or ask the user. Do not remove or clean it another way: their uncommitted edits exist nowhere else."
    `);
  });
  it("git-impact", () => {
    expect(text("git-impact")).toMatchInlineSnapshot(`
      "Tandem refused this command before it ran; nothing was changed.
      \`git checkout -- src\` would overwrite or remove another live agent's uncommitted edits:
      - src/parse.ts: ada's uncommitted work (claude-code, task "rename the parser", last seen 2m ago)
      \`git commit -am wip\` skips the pre-commit hook and would commit files another live agent is editing:
      - src/lex/token.ts: bo's uncommitted work (codex, no task declared, last seen 40s ago)
      What to do: limit the command to your own files (for example \`git restore -- <your paths>\`, \`git stash push -- <your paths>\`, \`git commit -- <your paths>\`), or wait until ada, bo commits, or ask the user. Do not work around this another way: their edits exist nowhere else."
    `);
  });
  it("remote-claim", () => {
    expect(text("remote-claim")).toMatchInlineSnapshot(`
      "Tandem refused this edit; nothing was changed and nothing was claimed.
      Agents in other checkouts of this repository hold these files:
      - src/api.ts: reserved by dee in lin@build-2 on branch main, task "api v2" (until 2025-12-02T11:00:00.000Z)
      - src/db.ts: being edited in mac@home on branch feat/db (as of 3 min ago)
      What to do: work on other files, or coordinate with the user; a reservation ends when its holder runs \`./tandem reserve --release PATH\` or it expires."
    `);
  });
  it("left-work", () => {
    expect(text("left-work")).toMatchInlineSnapshot(`
      "Tandem refused this write: it would overwrite uncommitted work that a session left behind when it ended (left work), and nobody live owns it:
      - src/cache.ts: left by cy (gemini-cli, task "cache warmup"), ended 1h ago
      Its bytes are saved. Ask your user whether to continue it, then:
      - \`./tandem adopt src/cache.ts\` to make it yours, \`./tandem recover src/cache.ts --session cy\` to get its saved bytes back, or ask your user to throw it away (a person discards it from their terminal).
      If you mean to replace it, make the same write again in this turn: it proceeds, and the previous bytes stay recoverable with that recover command."
    `);
  });
  it("claim-conflict", () => {
    expect(text("claim-conflict")).toMatchInlineSnapshot(`
      "Tandem refused this edit; nothing was changed and nothing was claimed.
      These files are being edited by another live agent session:
      - src/parse.ts: held by ada (claude-code, task "rename the parser", last seen 2m ago)
      - src/lex/token.ts: held by bo (codex, no task declared, last seen 40s ago) (it holds src/lex)
      What to do: work on other files, or wait until ada, bo commits (claims are released on commit), or coordinate with the user. Do not work around this by editing the file another way."
    `);
  });
  it("line-conflict", () => {
    expect(text("line-conflict")).toMatchInlineSnapshot(`
      "Tandem refused this edit; nothing was changed and nothing was claimed.
      These files are being edited by another live agent session:
      - src/parse.ts: held by ada (claude-code, task "rename the parser", last seen 2m ago)
      src/schema.ts is shared by lines: this edit changes lines within 3 of another live agent's uncommitted lines:
      - lines 40–52: uncommitted work of ada
      - line 90: uncommitted work of bo (this edit would remove them)
      What to do: read the file again and keep your change at least 3 unchanged lines away from those lines (an Edit of your own lines, not a Write of a whole older copy), or wait until ada, bo commits them (claims are released on commit), or coordinate with the user. Do not work around this by editing the file another way."
    `);
  });
  it("protected-wiring", () => {
    expect(text("protected-wiring")).toMatchInlineSnapshot(`
      "Tandem refused this edit; nothing was changed and nothing was claimed.
      These targets cannot be coordinated:
      - .claude/settings.json: Tandem's hook wiring for Claude Code: only a person edits it (set TANDEM_ALLOW_WIRING_EDIT=1 in their own shell)"
    `);
  });
  it("kernel-guard", () => {
    expect(text("kernel-guard")).toMatchInlineSnapshot(
      `"Tandem refused this command before it ran: the repository's config says "guard": "kernel", and the kernel jail cannot be set up here (unprivileged user namespaces are off). To fix: \`sysctl -w kernel.unprivileged_userns_clone=1\` as root; or set "guard": "reader" in .tandem/config.jsonc to let commands run unjailed."`,
    );
  });
  it("forged-hook", () => {
    expect(text("forged-hook")).toMatchInlineSnapshot(
      `"Tandem refused: this \`tandem hook\` call runs inside bo's own tool call but speaks for session ada; only an agent client runs Tandem's hooks, so nothing was recorded. To end your own work use \`./tandem release PATH\`; to change another session's state, ask a person."`,
    );
  });
  it("store-busy", () => {
    expect(text("store-busy")).toMatchInlineSnapshot(
      `"Tandem refused this tool call: its store is busy, so it cannot check the call against other sessions' work. .git/tandem/ledger.db is locked by another process: SQLITE_BUSY; held past the 5 s agents.storeLockSeconds allows (this call waited 5 s) Retry the same tool call in a moment; if it is refused again, tell the user, and do not work around this by editing the file another way."`,
    );
  });
  it("store-unavailable", () => {
    expect(text("store-unavailable")).toMatchInlineSnapshot(
      `"Tandem refused this tool call: it cannot check it against other sessions' work because its store is unusable. .git/tandem/ledger.db is not a database: file is not a database Tell the user; retry once \`tandem doctor\` reports no problem, and do not work around this by editing the file another way."`,
    );
  });
  it("disk-full", () => {
    expect(text("disk-full")).toMatchInlineSnapshot(
      `"Tandem refused this tool call because the disk is full: Tandem's store .git/tandem/state.db cannot be read or written: the disk it is on is full (SQLITE_FULL: database or disk is full). While it is full, only commands that free space pass: \`rm\` of your own files, and \`tandem gc\`. Tell the user; once space is free, retry this call."`,
    );
  });
  it("internal-error", () => {
    expect(text("internal-error")).toMatchInlineSnapshot(
      `"Tandem could not check this edit (EACCES: permission denied, open '/work/app/.tandem/config.jsonc'), and refuses it to stay safe. Run \`tandem doctor\` in the repository to see what is wrong."`,
    );
  });
  it("server-interrupted", () => {
    expect(text("server-interrupted")).toMatchInlineSnapshot(
      `"Tandem's server stopped while checking this tool call, after recording part of it, so Tandem did not check it twice. Nothing was lost: retry the same tool call."`,
    );
  });
  it("status", () => {
    expect(text("status")).toMatchInlineSnapshot(
      `"Tandem: this turn used tools, but the end-of-turn ritual is incomplete: the status check was not run. Run \`./tandem status --end-turn\` (it passes only when your own work is committed and pushed; fix what it lists first; a push the remote rejects is \`./tandem land\`, never a pull or a stash), and end your reply with the box it prints, verbatim, in a fenced code block."`,
    );
  });
  it("task (a client that submits it as its next prompt)", () => {
    expect(text("task")).toMatchInlineSnapshot(`
      "[tandem:stop-remediation rule=task]
      Tandem: this turn used tools, but the end-of-turn ritual is incomplete: no task was declared; the status check was not run. Run \`./tandem task "<one line: what you are working on>"\` (or \`./tandem task ""\` if nothing is new) and then run \`./tandem status --end-turn\` (it passes only when your own work is committed and pushed; fix what it lists first; a push the remote rejects is \`./tandem land\`, never a pull or a stash), and end your reply with the box it prints, verbatim, in a fenced code block."
    `);
  });
  it("status-box", () => {
    expect(text("status-box")).toMatchInlineSnapshot(
      `"Tandem: this turn used tools, but the end-of-turn ritual is incomplete: the final reply does not show the status box. End your reply with the box \`./tandem status\` printed, verbatim, in a fenced code block; you need not run the commands again."`,
    );
  });
});

describe("the other texts an agent reads", () => {
  it("the status box", () => {
    const model: StatusModel = {
      session: {
        name: "ada",
        client: "claude-code",
        startedAt: NOW - 50 * MIN,
        task: "rename the parser",
        activity: "editing",
      },
      claims: ["src/parse.ts", "src/lex/"],
      awaiting: ["src/parse.ts", "test/parse.test.ts"],
      ignored: [],
      peers: [{ name: "bo", client: "codex", task: null, claims: 2, lastSeen: NOW - 40_000 }],
      subagents: [{ name: "ada.1", state: "running" }],
      warnings: ["Wiring for Cursor is missing: run `tandem init --client cursor` to restore it."],
      left,
      printer: AGENT,
      endTurn: true,
      now: NOW,
    };
    expect(renderStatusBox(model)).toMatchInlineSnapshot(`
      "+-- tandem status: ada ------------------------------------------------+
      | session  ada (claude-code), 50m old, editing                         |
      | task     rename the parser                                           |
      | claims   2: src/parse.ts, src/lex/                                   |
      | changes  2 not committed yet: src/parse.ts, test/parse.test.ts       |
      | peers                                                                |
      |   bo (codex) 2 claims, seen 40s ago: no task                         |
      | subagents                                                            |
      |   ada.1: running                                                     |
      | left     src/cache.ts: cy (gemini-cli, task "cache warmup"), ended   |
      |          1h ago; \`./tandem adopt src/cache.ts\` to continue it        |
      | warning  Wiring for Cursor is missing: run \`tandem init --client     |
      |          cursor\` to restore it.                                      |
      | pushed   yes (end-turn check passed): own work committed and pushed  |
      +----------------------------------------------------------------------+
      "
    `);
  });

  it("the session-start context", () => {
    const context = sessionStartContext({
      name: "ada",
      client: "claude-code",
      kind: "session",
      parentName: null,
      requireGitFinalization: true,
      command: "./tandem",
      configProblems: [
        ".tandem/config.jsonc: agents.freshnessSeconds must be a number; fix or remove the key.",
      ],
      peers: [
        {
          name: "bo",
          client: "codex",
          task: "fix the lexer",
          claims: ["src/lex/token.ts"],
          lastSeen: NOW - 40_000,
        },
      ],
      left,
      now: NOW,
    });
    expect(context).toMatchInlineSnapshot(`
      "Tandem: you are ada. Other AI agents may work in this repository at the same time; an edit of a file another live agent holds is refused with a message naming it — then work on something else or coordinate, never work around it.
      Before ending a turn in which you used tools, run \`./tandem status --end-turn\` (it passes only once your own work is committed and pushed) and \`./tandem task "<what you are working on>"\` (\`./tandem task ""\` if nothing changed), and show the status box at the end of your reply.
      Tandem's configuration has a problem. Coordination stays on: Tandem ignores what it cannot use and falls back to its defaults for it. Tell your user, so they can fix it:
      - .tandem/config.jsonc: agents.freshnessSeconds must be a number; fix or remove the key.
      Live peers right now:
      - bo (codex, task "fix the lexer", holds src/lex/token.ts; seen 40s ago)
      Left work (uncommitted files of sessions that ended; do not overwrite them unasked):
      - src/cache.ts: left by cy (gemini-cli, task "cache warmup"), ended 1h ago; \`./tandem adopt src/cache.ts\` to make it yours, \`./tandem recover src/cache.ts --session cy\` to get its saved bytes back, or ask your user to throw it away (a person discards it from their terminal)"
    `);
  });

  it("the session-start context of a sub-agent", () => {
    const context = sessionStartContext({
      name: "ada.1",
      client: "claude-code",
      kind: "subagent",
      parentName: "ada",
      requireGitFinalization: false,
      peers: [],
      now: NOW,
    });
    expect(context).toMatchInlineSnapshot(`
      "Tandem: you are ada.1. Other AI agents may work in this repository at the same time; an edit of a file another live agent holds is refused with a message naming it — then work on something else or coordinate, never work around it.
      You are a sub-agent of ada, working in your own git worktree. Commit your work or leave it uncommitted: all of it is captured when you finish and applied back to the parent. The end-of-turn ritual does not apply to you.
      No other live agent sessions right now."
    `);
  });
});
