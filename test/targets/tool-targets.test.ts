import { describe, expect, it } from "vitest";
import { extractShellTargets } from "../../src/targets/shell.js";
import { toolTargets } from "../../src/targets/tool-targets.js";

describe("write targets of a tool call", () => {
  it.each([
    ["Claude Write", { name: "Write", input: { file_path: "/r/a.ts", content: "x" } }, ["/r/a.ts"]],
    [
      "Claude NotebookEdit",
      { name: "NotebookEdit", input: { notebook_path: "/r/n.ipynb", new_source: "" } },
      ["/r/n.ipynb"],
    ],
    ["Cursor Delete with path", { name: "Delete", input: { path: "/r/old.ts" } }, ["/r/old.ts"]],
    ["a tool that cannot write", { name: "Read", input: { file_path: "/r/a.ts" } }, []],
  ])("%s", async (_name, tool, raws) => {
    expect((await toolTargets({ ...tool, useId: null })).raws).toEqual(raws);
  });

  it("claims an apply_patch heredoc after `cd` only under that directory", async () => {
    const command = "cd sub && apply_patch <<'P'\n*** Begin Patch\n*** Add File: n.txt\n+x\n*** End Patch\nP";
    const t = await toolTargets({ name: "Bash", input: { command }, useId: null });
    expect(t.raws).toEqual(["sub/n.txt"]);
    expect(t.shell).toBe(true);
  });

  it("reads an older Codex shell call given as an argv array", async () => {
    const t = await toolTargets({
      name: "shell",
      input: { command: ["bash", "-lc", "rm -f gone.txt"] },
      useId: null,
    });
    expect(t.raws).toEqual(["gone.txt"]);
  });

  it("does not mistake Object's own properties for known commands", async () => {
    for (const command of ["toString x", "constructor y", "git toString z"]) {
      expect((await extractShellTargets(command)).opaque).toBe(true);
    }
  });
});
