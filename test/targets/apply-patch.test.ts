import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  type PatchTarget,
  parsePatchTargets,
  patchTextFromToolInput,
  writePaths,
} from "../../src/targets/apply-patch.js";

const CODEX_FIXTURES = new URL("../fixtures/codex/", import.meta.url);

interface HookPayload {
  hook_event_name?: string;
  tool_name?: string;
  tool_input?: unknown;
}

function codexPayloads(): { name: string; payload: HookPayload }[] {
  const files = readdirSync(CODEX_FIXTURES).filter((f) => /ToolUse.*\.json$/.test(f));
  const single = files.map((name) => ({
    name,
    payload: JSON.parse(readFileSync(new URL(name, CODEX_FIXTURES), "utf8")) as HookPayload,
  }));
  const observed = readFileSync(new URL("observed-0.171.0.jsonl", CODEX_FIXTURES), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line, i) => ({
      name: `observed-0.171.0.jsonl:${i + 1}`,
      payload: (JSON.parse(line) as { stdin: HookPayload }).stdin,
    }));
  return [...single, ...observed].filter(({ payload }) => payload.tool_name === "apply_patch");
}

const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");

const WORKED_EXAMPLE = patch(
  "*** Add File: new/hello.txt",
  "+hello",
  "*** Update File: u.txt",
  "@@",
  "-a",
  "+A",
  " b",
  "*** Delete File: d.txt",
  "*** Update File: m.txt",
  "*** Move to: moved/m2.txt",
  "@@",
  "-m",
  "+M",
);

const WORKED_TARGETS: PatchTarget[] = [
  { op: "add", path: "new/hello.txt" },
  { op: "update", path: "u.txt" },
  { op: "delete", path: "d.txt" },
  { op: "update", path: "m.txt", moveTo: "moved/m2.txt" },
];

describe("parsePatchTargets on recorded Codex payloads", () => {
  const expected: Record<string, PatchTarget[]> = {
    "edit-PreToolUse.json": [
      { op: "update", path: "README.md" },
      { op: "add", path: "sub/new.txt" },
    ],
    "edit-PostToolUse.json": [
      { op: "update", path: "README.md" },
      { op: "add", path: "sub/new.txt" },
    ],
    "stopblock-PreToolUse.json": [{ op: "add", path: "hello.txt" }],
    "stopblock-PostToolUse.json": [{ op: "add", path: "hello.txt" }],
    "write-PreToolUse.json": [{ op: "add", path: "hello.txt" }],
    "write-PostToolUse.json": [{ op: "add", path: "hello.txt" }],
    "observed-0.171.0.jsonl:5": WORKED_TARGETS,
    "observed-0.171.0.jsonl:6": WORKED_TARGETS,
  };

  it.each(codexPayloads())("extracts every file from $name", ({ name, payload }) => {
    const text = patchTextFromToolInput(payload.tool_input);
    expect(text).not.toBeNull();
    expect(parsePatchTargets(text!)).toEqual(expected[name]);
  });

  it("has an expectation for every apply_patch fixture", () => {
    expect(codexPayloads().map((p) => p.name)).toEqual(expect.arrayContaining(Object.keys(expected)));
    expect(Object.keys(expected)).toEqual(expect.arrayContaining(codexPayloads().map((p) => p.name)));
  });
});

describe("parsePatchTargets", () => {
  it("extracts the docs/clients.md §5 worked example: add, update, delete and update+move", () => {
    expect(parsePatchTargets(WORKED_EXAMPLE)).toEqual(WORKED_TARGETS);
  });

  it.each([
    {
      behaviour: "a context line that looks like an Add header stays content",
      text: patch("*** Update File: a.txt", "@@", " *** Add File: x", "-old", "+new"),
      targets: [{ op: "update", path: "a.txt" }],
    },
    {
      behaviour: "an added line that looks like a Delete header stays content",
      text: patch("*** Add File: notes.md", "+*** Delete File: y", "+*** Update File: z"),
      targets: [{ op: "add", path: "notes.md" }],
    },
    {
      behaviour: "a removed line that looks like a header stays content",
      text: patch("*** Update File: a.txt", "-*** Add File: b", "+x"),
      targets: [{ op: "update", path: "a.txt" }],
    },
    {
      behaviour: "Move to counts only on the line right after Update File",
      text: patch("*** Update File: a.txt", "@@", "-x", "+y", "*** Move to: b.txt"),
      targets: [{ op: "update", path: "a.txt" }],
    },
    {
      behaviour: "an indented Move to is not a move (Codex checks the raw line)",
      text: patch("*** Update File: a.txt", "  *** Move to: b.txt", "@@", "-x", "+y"),
      targets: [{ op: "update", path: "a.txt" }],
    },
    {
      behaviour: "End of File and blank lines stay inside the update section",
      text: patch("*** Update File: a.txt", "@@ fn main", "-x", "+y", "*** End of File", "", "@@", " z"),
      targets: [{ op: "update", path: "a.txt" }],
    },
    {
      behaviour: "whitespace around markers and header lines is tolerated",
      text: "  *** Begin Patch  \n   *** Add File: a.txt   \n+x\n\t*** Delete File: b.txt\n  *** End Patch  ",
      targets: [
        { op: "add", path: "a.txt" },
        { op: "delete", path: "b.txt" },
      ],
    },
    {
      behaviour: "a heredoc wrapper around the envelope is accepted",
      text: `<<'EOF'\n${patch("*** Delete File: gone.txt")}\nEOF`,
      targets: [{ op: "delete", path: "gone.txt" }],
    },
    {
      behaviour: "CRLF line endings are stripped like Rust's str::lines",
      text: patch("*** Update File: a.txt", "*** Move to: b.txt", "@@", "-x", "+y").replaceAll("\n", "\r\n"),
      targets: [{ op: "update", path: "a.txt", moveTo: "b.txt" }],
    },
    {
      behaviour: "a patch missing End Patch still yields its files",
      text: "*** Begin Patch\n*** Add File: a.txt\n+x\n*** Delete File: b.txt\n",
      targets: [
        { op: "add", path: "a.txt" },
        { op: "delete", path: "b.txt" },
      ],
    },
    {
      behaviour: "text before Begin Patch is ignored",
      text: `*** Add File: not-in-patch.txt\n${patch("*** Add File: a.txt", "+x")}`,
      targets: [{ op: "add", path: "a.txt" }],
    },
    {
      behaviour: "paths keep spaces, quotes, non-ASCII characters and leading dashes",
      text: patch(
        "*** Add File: dir with space/file name.txt",
        "+x",
        '*** Delete File: it\'s "quoted".md',
        "*** Update File: naïve/日本語.txt",
        "*** Move to: --leading-dash.txt",
        "@@",
        "-a",
        "+b",
      ),
      targets: [
        { op: "add", path: "dir with space/file name.txt" },
        { op: "delete", path: 'it\'s "quoted".md' },
        { op: "update", path: "naïve/日本語.txt", moveTo: "--leading-dash.txt" },
      ],
    },
    {
      behaviour: "a header without a path names no file",
      text: patch("*** Add File: ", "+x", "*** Delete File: real.txt"),
      targets: [{ op: "delete", path: "real.txt" }],
    },
  ] satisfies { behaviour: string; text: string; targets: PatchTarget[] }[])(
    "$behaviour",
    ({ text, targets }) => {
      expect(parsePatchTargets(text)).toEqual(targets);
    },
  );

  it.each([
    ["an empty string", ""],
    ["plain prose", "hello world\nnothing to see"],
    ["binary noise", "\u0000\u0001*** \uFFFF\n***\n@@"],
    ["only the envelope", patch()],
  ])("returns no targets for %s", (_name, text) => {
    expect(parsePatchTargets(text)).toEqual([]);
  });

  it("returns no targets rather than throwing for a non-string", () => {
    expect(parsePatchTargets(undefined as unknown as string)).toEqual([]);
  });

  // How fast these parse is measured by bench/patch-parse.mjs, never asserted here.
  it("parses every file of a 500-file patch", () => {
    const sections = Array.from({ length: 500 }, (_, i) => [
      `*** Update File: src/file-${i}.ts`,
      "@@",
      ...Array.from({ length: 20 }, (_, j) => (j % 2 ? `-old ${j}` : `+new ${j}`)),
    ]).flat();
    const targets = parsePatchTargets(patch(...sections));
    expect(targets).toHaveLength(500);
    expect(targets[0]).toEqual({ op: "update", path: "src/file-0.ts" });
    expect(targets[499]).toEqual({ op: "update", path: "src/file-499.ts" });
  });

  it("parses a 200 KB single-file patch and a multi-MB one", () => {
    const lines = (n: number) => Array.from({ length: n }, (_, i) => `+line ${i} ${"x".repeat(40)}`);
    for (const count of [4_000, 80_000]) {
      const text = patch("*** Add File: big.txt", ...lines(count));
      expect(parsePatchTargets(text)).toEqual([{ op: "add", path: "big.txt" }]);
    }
  });
});

describe("patchTextFromToolInput", () => {
  const text = patch("*** Add File: a.txt", "+x");

  it.each([
    { shape: "Codex 0.171.0 {command: patch}", input: { command: text }, expected: text },
    { shape: "older {input: patch}", input: { input: text }, expected: text },
    {
      shape: "argv {command: ['apply_patch', patch]}",
      input: { command: ["apply_patch", text] },
      expected: text,
    },
    {
      shape: "argv with a path to applypatch",
      input: { command: ["/usr/bin/applypatch", text] },
      expected: text,
    },
    {
      shape: "tool_input delivered as a JSON string",
      input: JSON.stringify({ command: text }),
      expected: text,
    },
    { shape: "a bare patch string", input: text, expected: text },
    { shape: "a shell argv", input: { command: ["bash", "-lc", "ls"] }, expected: null },
    { shape: "an object without patch text", input: { file_path: "a.txt" }, expected: null },
    { shape: "a string without a patch", input: "ls -la", expected: null },
    { shape: "null", input: null, expected: null },
    { shape: "a number", input: 42, expected: null },
  ])("reads $shape", ({ input, expected }) => {
    expect(patchTextFromToolInput(input)).toBe(expected);
  });
});

describe("writePaths", () => {
  it("lists a move's source and destination once each, in patch order", () => {
    expect(writePaths(WORKED_TARGETS)).toEqual(["new/hello.txt", "u.txt", "d.txt", "m.txt", "moved/m2.txt"]);
  });

  it("drops duplicates across sections", () => {
    const targets: PatchTarget[] = [
      { op: "update", path: "a.txt", moveTo: "b.txt" },
      { op: "add", path: "a.txt" },
      { op: "delete", path: "b.txt" },
    ];
    expect(writePaths(targets)).toEqual(["a.txt", "b.txt"]);
  });
});
