import { describe, expect, it } from "vitest";
import type { UiLineFile } from "../../src/core/ui/line-rows.js";
import type { BoardModel } from "../../src/watch/model.js";
import { EMPTY_HINT, renderBoard } from "../../src/watch/render.js";
import { busyBoard, event, NOW, remoteView, session, stripAnsi, widthOf } from "./board.js";

/** A file two sessions share by lines: one hunk each, and one a person's editor changed. */
const SHARED: UiLineFile[] = [
  {
    path: "src/schema/generate.ts",
    hunks: [
      {
        where: "line 4",
        added: 1,
        removed: 1,
        authors: [{ kind: "session", name: "agent-wren", client: "claude-code" }],
      },
      {
        where: "lines 40–44",
        added: 5,
        removed: 0,
        authors: [{ kind: "session", name: "agent-otter", client: "codex" }],
      },
      {
        where: "before line 90",
        added: 0,
        removed: 2,
        authors: [
          { kind: "session", name: "agent-otter", client: "codex" },
          { kind: "writer", name: "another writer" },
        ],
      },
    ],
  },
];

const empty: BoardModel = {
  root: "/repo",
  now: NOW,
  seq: 0,
  sessions: [],
  claims: [],
  subagents: [],
  events: [],
};

describe("renderBoard fits the terminal", () => {
  const sizes = [
    { width: 120, height: 40 },
    { width: 100, height: 30 },
    { width: 80, height: 24 },
    { width: 60, height: 20 },
    { width: 59, height: 20 },
    { width: 40, height: 12 },
    { width: 24, height: 8 },
    { width: 10, height: 4 },
  ];
  const models = {
    busy: busyBoard(),
    empty,
    remote: busyBoard({ elsewhere: remoteView() }),
    shared: busyBoard({ lines: SHARED }),
    crowded: busyBoard({
      elsewhere: remoteView(),
      sessions: Array.from({ length: 40 }, (_, i) => session({ name: `agent-${i}`, task: "x".repeat(300) })),
      events: Array.from({ length: 50 }, (_, i) => event(i + 1)),
    }),
  };
  for (const [name, model] of Object.entries(models)) {
    for (const { width, height } of sizes) {
      for (const color of [true, false]) {
        it(`${name} at ${width}x${height}, color ${color}: at most ${height} lines, none wider than ${width}`, () => {
          const lines = renderBoard(model, { width, height, color });
          expect(lines.length).toBeLessThanOrEqual(height);
          for (const l of lines) expect(widthOf(l)).toBeLessThanOrEqual(width);
          expect(lines.some((l) => l.includes("\x1b"))).toBe(color);
        });
      }
    }
  }
});

describe("renderBoard content", () => {
  it("shows the header with root and time, every section and the q footer", () => {
    const lines = renderBoard(busyBoard(), { width: 100, height: 30, color: false });
    expect(lines[0]).toMatch(/^tandem watch \/home\/dev\/projects\/tandem +\d\d:\d\d:\d\d$/);
    expect(lines.at(-1)).toMatch(/^q quit +event #42, 1s ago$/);
    const text = lines.join("\n");
    expect(text).toContain("-- SESSIONS 2 live, 1 stale");
    expect(text).toMatch(/NAME +CLIENT +KIND +GUARD +STATE +ACTIVITY +CLAIMS +SEEN +TASK/);
    expect(text).toMatch(/agent-otter +codex +session +reader +live +needs_input +0 +3s +-/);
    expect(text).toMatch(/src\/parser\/tokenizer\.ts +-> +agent-wren +live +3s/);
    expect(text).toMatch(/docs\/old\.md +-> +agent-moth +stale +15m/);
    expect(text).toMatch(/helper +agent-wren +exec +exit 0 +2 commits \+ 1\.2 KB uncommitted +not applied/);
    expect(text).toMatch(/\d\d:\d\d:\d\d +agent-otter +claim\.denied +src\/a\.ts \(held by agent-wren\)/);
  });

  it("shows the guard in force for each session", () => {
    const board = busyBoard();
    board.sessions[0] = { ...board.sessions[0]!, guard: "kernel" };
    const text = renderBoard(board, { width: 120, height: 30, color: false }).join("\n");
    expect(text).toMatch(new RegExp(`${board.sessions[0]!.name} +\\S+ +\\S+ +kernel +`));
    expect(text).toMatch(/agent-otter +codex +session +reader +live/);
  });

  it("drops the less important columns below 60 columns", () => {
    const text = renderBoard(busyBoard(), { width: 50, height: 30, color: false }).join("\n");
    expect(text).not.toMatch(/CLIENT|KIND|GUARD/);
    expect(text).toMatch(/NAME +STATE/);
    expect(text).toContain("agent-otter");
    expect(text).toContain("src/parser/tokenizer.ts");
    // The events lose their time column first.
    expect(text).toMatch(/^agent-otter +claim\.denied/m);
  });

  it("clips long tasks with ~ and keeps the end of long paths", () => {
    const m = busyBoard({
      sessions: [session({ task: `refactor ${"very ".repeat(40)}long task` })],
      claims: [
        { path: `src/${"deep/".repeat(20)}file.ts`, holder: "agent-wren", state: "live", lastSeen: NOW },
      ],
    });
    const lines = renderBoard(m, { width: 80, height: 30, color: false });
    expect(lines.find((l) => l.startsWith("agent-wren"))).toMatch(/refactor very very .*~$/);
    expect(lines.find((l) => /-> +agent-wren/.test(l))).toMatch(/^~.*deep\/file\.ts +->/);
  });

  it("says how sessions appear when there are none", () => {
    const lines = renderBoard(empty, { width: 80, height: 24, color: false });
    const text = lines.join(" ").replace(/\s+/g, " ");
    expect(text).toContain(EMPTY_HINT);
    expect(text).toContain("-- CLAIMS none");
    expect(text).toContain("-- EVENTS none yet");
    expect(lines.at(-1)).toMatch(/^q quit +no events yet$/);
  });

  it("shares the rows among sections and says how many sessions are not shown", () => {
    const m = busyBoard({
      sessions: Array.from({ length: 30 }, (_, i) => session({ name: `agent-${i}` })),
      events: Array.from({ length: 30 }, (_, i) => event(i + 1)),
    });
    const lines = renderBoard(m, { width: 80, height: 24, color: false });
    expect(lines).toHaveLength(24);
    const text = lines.join("\n");
    expect(text).toMatch(/\.\.\. \d+ more/);
    expect(text).toContain("tokenizer.ts");
    expect(text).toContain("helper");
    // The most recent events are the ones kept.
    expect(text).toContain("src/file-30.ts");
    expect(text).not.toContain("src/file-1.ts");
  });

  it("prints everything when the height is unbounded (a snapshot)", () => {
    const m = busyBoard({ sessions: Array.from({ length: 30 }, (_, i) => session({ name: `agent-${i}` })) });
    const lines = renderBoard(m, { width: 80, height: Number.POSITIVE_INFINITY, color: false });
    expect(lines.filter((l) => /^agent-\d+ /.test(l))).toHaveLength(30);
    expect(lines.join("\n")).not.toContain("more");
  });

  it("uses no escape codes at all without color, and colours states with them", () => {
    const plain = renderBoard(busyBoard(), { width: 100, height: 30, color: false });
    expect(plain.join("\n")).not.toContain("\x1b");
    const colored = renderBoard(busyBoard(), { width: 100, height: 30, color: true }).join("\n");
    expect(colored).toContain("\x1b[32mlive");
    expect(colored).toContain("\x1b[31mclaim.denied");
    expect(stripAnsi(colored)).toBe(plain.join("\n"));
  });

  it("neutralises control characters and counts wide characters as two cells", () => {
    const m = busyBoard({
      sessions: [
        session({ task: "evil\x1b]0;pwned\x07 title\nnext" }),
        session({ name: "agent-cjk", task: "修复解析器".repeat(20) }),
      ],
    });
    const lines = renderBoard(m, { width: 70, height: 30, color: false });
    const controls = [...lines.join("")].filter((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f);
    expect(controls).toEqual([]);
    expect(lines.find((l) => l.startsWith("agent-wren"))).toContain("evil?]0;pwned? title next");
    for (const l of lines) expect(widthOf(l)).toBeLessThanOrEqual(70);
    expect(widthOf(lines.find((l) => l.startsWith("agent-cjk"))!)).toBeGreaterThanOrEqual(68);
  });

  it("shows other checkouts' sessions and leases, marked by their machine, and since when presence is unknown", () => {
    const lines = renderBoard(busyBoard({ elsewhere: remoteView() }), {
      width: 140,
      height: 60,
      color: false,
    });
    const text = lines.join("\n");
    expect(text).toMatch(/-- ELSEWHERE 1 remote session, 1 lease, unknown since \d\d:\d\d:\d\d -/);
    expect(text).toMatch(/MACHINE +WHO +BRANCH +PATHS +TASK +SEEN/);
    expect(text).toMatch(
      /buildbox:\/srv\/tandem +agent-lark +feature\/lexer +src\/lexer\.ts src\/token\.ts +split the lexer +2m/,
    );
    expect(text).toMatch(
      /laptop:\/home\/ann\/tandem +agent-fern +- +src\/grammar\.ts +- +until \d\d:\d\d:\d\d/,
    );
    expect(text).toMatch(/remote presence unknown since .* \(5m ago\): fatal: unable to access/);
    expect(text).toMatch(/fix: origin cannot be reached/);
    // Between the claims and the sub-agents: who holds what, here and elsewhere, side by side.
    expect(text.indexOf("-- CLAIMS")).toBeLessThan(text.indexOf("-- ELSEWHERE"));
    expect(text.indexOf("-- ELSEWHERE")).toBeLessThan(text.indexOf("-- SUB-AGENTS"));
    // A narrow board still says where each remote row runs.
    const narrow = renderBoard(busyBoard({ elsewhere: remoteView() }), {
      width: 44,
      height: 60,
      color: false,
    });
    expect(narrow.find((l) => l.includes("agent-lark"))).toMatch(/srv\/tandem +agent-lark/);
  });

  it("has no ELSEWHERE section without a remote or with sharing off, and no unknown line when synced", () => {
    for (const state of ["no-remote", "off"] as const) {
      const text = renderBoard(busyBoard({ elsewhere: remoteView({ state }) }), {
        width: 100,
        height: 40,
        color: false,
      });
      expect(text.join("\n")).not.toContain("ELSEWHERE");
    }
    const synced = renderBoard(busyBoard({ elsewhere: remoteView({ state: "ok", unknown: null }) }), {
      width: 100,
      height: 40,
      color: false,
    }).join("\n");
    expect(synced).toContain("-- ELSEWHERE 1 remote session, 1 lease -");
    expect(synced).not.toContain("unknown");
  });
});

describe("files shared by lines (decision 0061)", () => {
  it("shows a row per hunk with its file, lines, size and authors, only while there are some", () => {
    const text = renderBoard(busyBoard({ lines: SHARED }), { width: 120, height: 40, color: false }).join(
      "\n",
    );
    expect(text).toContain("-- SHARED BY LINES 3 hunks in 1 file");
    expect(text).toMatch(/PATH +LINES +\+\/- +BY/);
    expect(text).toMatch(/src\/schema\/generate\.ts +line 4 +\+1 -1 +agent-wren \(claude-code\)/);
    expect(text).toMatch(/src\/schema\/generate\.ts +lines 40–44 +\+5 -0 +agent-otter \(codex\)/);
    expect(text).toMatch(/before line 90 +\+0 -2 +agent-otter \(codex\), another writer/);
    expect(renderBoard(busyBoard(), { width: 120, height: 40, color: false }).join("\n")).not.toContain(
      "SHARED BY LINES",
    );
  });
});
