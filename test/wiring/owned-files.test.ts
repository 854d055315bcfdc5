import { describe, expect, it } from "vitest";
import type { ClientName } from "../../src/clients/index.js";
import { CLIENTS } from "../../src/clients/index.js";
import { isOwnedHookFile, ownedCommands, ownedMarkerLine } from "../../src/clients/owned-file.js";
import type { ClientSpec } from "../../src/clients/types.js";
import { ownedFilePlans } from "../../src/wiring/owned-files.js";
import type { FileState } from "../../src/wiring/snapshot.js";

/** A client whose hooks are two scripts Tandem writes whole (as Cline's are), on a real spec's fields. */
const scripts: ClientSpec<ClientName> = {
  ...CLIENTS["claude-code"],
  label: "Scripted",
  layout: "files",
  settingsFile: ".scripted/hooks/PreToolUse",
  hookFiles: (launcher) =>
    ["PreToolUse", "Stop"].map((event) => ({
      path: `.scripted/hooks/${event}`,
      text: `#!/bin/sh\n${ownedMarkerLine("#", `${launcher} hook scripted ${event}`)}\nexec ${launcher} hook scripted ${event}\n`,
      executable: true,
    })),
};

const want = (launcher: string) => scripts.hookFiles!(launcher, "tandem");
const at = (i: number, text: string | null, executable = text !== null): FileState => ({
  path: `/r/${want("tandem")[i]!.path}`,
  text,
  executable,
});

describe("hook files Tandem owns whole", () => {
  const ours = want("tandem");
  const cases: {
    name: string;
    mode: "init" | "deinit";
    states: FileState[];
    actions: string[];
  }[] = [
    {
      name: "creates every missing file",
      mode: "init",
      states: [at(0, null), at(1, null)],
      actions: ["create", "create"],
    },
    {
      name: "leaves its own current files alone",
      mode: "init",
      states: [at(0, ours[0]!.text), at(1, ours[1]!.text)],
      actions: ["unchanged", "unchanged"],
    },
    {
      name: "rewrites its own file that calls another launcher",
      mode: "init",
      states: [at(0, want("npx tandem")[0]!.text), at(1, ours[1]!.text)],
      actions: ["update", "unchanged"],
    },
    {
      name: "makes its own file executable again",
      mode: "init",
      states: [at(0, ours[0]!.text, false), at(1, ours[1]!.text)],
      actions: ["update", "unchanged"],
    },
    {
      name: "refuses a file of that name someone else wrote",
      mode: "init",
      states: [at(0, "#!/bin/sh\necho mine\n"), at(1, null)],
      actions: ["refuse", "create"],
    },
    {
      name: "deinit deletes only files carrying the mark",
      mode: "deinit",
      states: [at(0, ours[0]!.text), at(1, "#!/bin/sh\necho mine\n")],
      actions: ["delete", "unchanged"],
    },
    {
      name: "deinit of nothing does nothing",
      mode: "deinit",
      states: [at(0, null), at(1, null)],
      actions: ["unchanged", "unchanged"],
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      const plans = ownedFilePlans(
        scripts,
        c.states,
        c.mode === "init" ? { launcher: "tandem", person: "tandem" } : null,
        c.mode,
      );
      expect(plans.map((p) => p.action)).toEqual(c.actions);
      for (const p of plans.filter((x) => x.action === "create" || x.action === "update")) {
        expect(p.executable).toBe(true);
        expect(p.after).toBe(ours[c.states.findIndex((s) => s.path === p.path)]!.text);
      }
    });

  it("names the file and what to do when it refuses", () => {
    const [plan] = ownedFilePlans(
      scripts,
      [at(0, "echo mine\n"), at(1, null)],
      { launcher: "tandem", person: "tandem" },
      "init",
    );
    expect(plan!.reason).toContain(".scripted/hooks/PreToolUse: not written by Tandem; move it aside");
  });
});

describe("the mark of an owned hook file", () => {
  it("reads back each hook command from marker lines in any comment syntax", () => {
    const text = [
      "#!/bin/sh",
      ownedMarkerLine("#", "tandem hook cline pre-tool-use"),
      ownedMarkerLine("//", "'/opt/node' '/x/tandem.cjs' hook opencode stop"),
      'echo "# tandem:hook-file not a comment line"',
    ].join("\n");
    expect(ownedCommands(text)).toEqual([
      "tandem hook cline pre-tool-use",
      "'/opt/node' '/x/tandem.cjs' hook opencode stop",
    ]);
    expect(isOwnedHookFile(text)).toBe(true);
  });

  it("does not take a file that merely mentions the mark for Tandem's", () => {
    expect(isOwnedHookFile("const s = 'tandem:hook-file tandem hook x y';\n")).toBe(false);
    expect(isOwnedHookFile("")).toBe(false);
  });
});
