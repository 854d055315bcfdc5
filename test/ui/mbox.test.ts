import { describe, expect, it } from "vitest";
import { splitMbox } from "../../src/core/ui/mbox.js";

const SHA = "a".repeat(40);
const SHA2 = "b".repeat(40);
const mbox = [
  `From ${SHA} Mon Sep 17 00:00:00 2001`,
  "From: Sub <sub@x>",
  "Subject: [PATCH 1/2] Fix the answer",
  "",
  "Body text with diff --git in prose is not a diff line",
  "---",
  " src/a.ts | 2 +-",
  "",
  "diff --git a/src/a.ts b/src/a.ts",
  "--- a/src/a.ts",
  "+++ b/src/a.ts",
  "@@ -1 +1 @@",
  "-41",
  "+42",
  "-- ",
  "2.39.0",
  "",
  `From ${SHA2} Mon Sep 17 00:00:00 2001`,
  "Subject: [PATCH 2/2] Add b",
  "",
  "diff --git a/b b/b",
  "new file mode 100644",
  "-- ",
  "2.39.0",
].join("\n");

describe("splitMbox", () => {
  it("gives each commit its subject without the PATCH prefix and its diff without the signature", () => {
    expect(splitMbox(mbox)).toEqual([
      {
        subject: "Fix the answer",
        diff: "diff --git a/src/a.ts b/src/a.ts\n--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1 +1 @@\n-41\n+42\n",
      },
      { subject: "Add b", diff: "diff --git a/b b/b\nnew file mode 100644\n" },
    ]);
  });

  it("reads an empty series as no commits", () => {
    expect(splitMbox("")).toEqual([]);
  });
});
