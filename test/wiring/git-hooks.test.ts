import { describe, expect, it } from "vitest";
import { installRegion, REGION_END, REGION_START, removeRegion } from "../../src/wiring/git-hooks.js";

const L = "tandem";
const block = (name: string, tail: string) => [
  REGION_START,
  "# Added by `tandem init`; `tandem deinit` removes it. Edits inside this block are overwritten.",
  `tandem git-hook ${name} "$@" ${tail}`,
  REGION_END,
];

function installed(
  current: string | null,
  name: "pre-commit" | "post-commit" | "post-checkout" = "pre-commit",
): string {
  const res = installRegion(current, name, L);
  if (!res.ok) throw new Error(res.reason);
  return res.text!;
}

describe("Tandem's block in git hooks", () => {
  it("writes a new hook as #!/bin/sh plus the block; only pre-commit may fail git", () => {
    expect(installed(null)).toBe(["#!/bin/sh", ...block("pre-commit", "|| exit $?"), ""].join("\n"));
    expect(installed(null, "post-checkout")).toContain('tandem git-hook post-checkout "$@" || true');
  });

  it("goes right after the shebang of an existing hook, keeping the rest verbatim", () => {
    const user = "#!/usr/bin/env bash\nset -e\nnpm run lint\n";
    expect(installed(user)).toBe(
      ["#!/usr/bin/env bash", ...block("pre-commit", "|| exit $?"), "set -e", "npm run lint", ""].join("\n"),
    );
  });

  it("replaces only its own block, where it stands, and drops duplicates", () => {
    const old = [
      "#!/bin/sh",
      "echo first",
      REGION_START,
      "old-launcher git-hook pre-commit",
      REGION_END,
      "echo last",
      REGION_START,
      "dup",
      REGION_END,
      "",
    ].join("\n");
    expect(installed(old)).toBe(
      ["#!/bin/sh", "echo first", ...block("pre-commit", "|| exit $?"), "echo last", ""].join("\n"),
    );
    expect(installed(installed(old))).toBe(installed(old));
  });

  it("adds a shell shebang to a script without one (git runs those with sh anyway)", () => {
    expect(installed("echo hi\n").split("\n").slice(0, 2)).toEqual(["#!/bin/sh", REGION_START]);
  });

  it.each(["#!/usr/bin/env python3\nprint(1)\n", "#!/usr/bin/node\n"])(
    "refuses to put shell lines into %j",
    (text) => {
      const res = installRegion(text, "pre-commit", L);
      expect(res).toMatchObject({ ok: false });
      expect(!res.ok && res.reason).toMatch(
        /is not a shell script .*call `tandem git-hook pre-commit "\$@"` from it yourself, or re-run with --no-git-hooks/,
      );
    },
  );

  it("refuses a block that was cut in half", () => {
    expect(installRegion(`#!/bin/sh\n${REGION_START}\necho\n`, "pre-commit", L)).toMatchObject({ ok: false });
    expect(removeRegion(`#!/bin/sh\n${REGION_START}\necho\n`)).toMatchObject({ ok: false });
  });

  it("removal restores the user's hook and deletes one that would be just a shebang", () => {
    const user = "#!/bin/bash\nnpm test\n";
    expect(removeRegion(installed(user))).toEqual({ ok: true, text: user });
    expect(removeRegion(installed(null))).toEqual({ ok: true, text: null });
    expect(removeRegion(user)).toEqual({ ok: true, text: user });
    expect(removeRegion(null)).toEqual({ ok: true, text: null });
  });
});
