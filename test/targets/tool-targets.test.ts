import { describe, expect, it } from "vitest";
import { extractShellTargets } from "../../src/targets/shell.js";
import { toolTargets } from "../../src/targets/tool-targets.js";
import { tempDir, writeFiles } from "../helpers/repo.js";

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

  it("hands on the git calls and a forged hook call of a shell command", async () => {
    const command = "git stash -u; echo '{}' | tandem hook claude-code session-end";
    const t = await toolTargets({ name: "Bash", input: { command }, useId: null });
    expect(t.gitCalls).toEqual([{ cwd: "", args: ["stash", "-u"] }]);
    expect(t.tandemHook).toBe(true);
  });

  it("expands a shell glob in the tool call's directory", async () => {
    const dir = tempDir();
    writeFiles(dir, { "f.txt": "A", "g.txt": "A" });
    const tool = { name: "Bash", input: { command: "rm -f ./*.txt" }, useId: null };
    expect((await toolTargets(tool, { cwd: dir })).raws).toEqual(["./f.txt", "./g.txt"]);
    expect(await toolTargets(tool)).toMatchObject({ raws: [], opaque: true });
  });

  it("gives a file tool no git calls and no hook call", async () => {
    const t = await toolTargets({ name: "Write", input: { file_path: "/r/a.ts", content: "" }, useId: null });
    expect(t).toMatchObject({ gitCalls: [], tandemHook: false });
  });
});
