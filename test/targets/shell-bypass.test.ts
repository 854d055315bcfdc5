import { describe, it } from "vitest";
import { BYPASS_GLOBAL } from "../../src/core/git/globals.js";
import { check, here, type ShellCase } from "./shell-check.js";

type Row = ShellCase & { behaviour: string };

/** A commit whose environment sets TANDEM_BYPASS, as the impact reader gets it. */
const bypassed = (shown: string, ...args: string[]) => ({
  ...here(BYPASS_GLOBAL, ...args),
  text: `${shown} git ${args.join(" ")}`,
});

describe("TANDEM_BYPASS before git is read as the hook switched off (decision 0050)", () => {
  it.each<Row>([
    {
      behaviour: "a prefix assignment",
      command: "TANDEM_BYPASS=1 git commit -qam x",
      gitCalls: [bypassed("TANDEM_BYPASS=1", "commit", "-qam", "x")],
    },
    {
      behaviour: "through env",
      command: "env TANDEM_BYPASS=1 git commit -m x",
      gitCalls: [bypassed("TANDEM_BYPASS=1", "commit", "-m", "x")],
    },
    {
      behaviour: "exported before",
      command: "export TANDEM_BYPASS=1; git add -A && git commit -m x",
      gitCalls: [bypassed("TANDEM_BYPASS=1", "add", "-A"), bypassed("TANDEM_BYPASS=1", "commit", "-m", "x")],
    },
    {
      behaviour: "inside bash -c",
      command: "bash -c 'TANDEM_BYPASS=1 git commit -am x'",
      gitCalls: [bypassed("TANDEM_BYPASS=1", "commit", "-am", "x")],
    },
    {
      behaviour: "exported into bash -c",
      command: "TANDEM_BYPASS=1 bash -lc 'git commit -am x'",
      gitCalls: [bypassed("TANDEM_BYPASS=1", "commit", "-am", "x")],
    },
    {
      behaviour: "a value known only at run time",
      command: 'TANDEM_BYPASS="$B" git commit -m x',
      gitCalls: [bypassed("TANDEM_BYPASS=…", "commit", "-m", "x")],
    },
    {
      behaviour: "with git -C",
      command: "TANDEM_BYPASS=1 git -C sub commit -m x",
      gitCalls: [{ ...bypassed("TANDEM_BYPASS=1", "commit", "-m", "x"), cwd: "sub" }],
    },
    {
      behaviour: "any other value is not the switch",
      command: "TANDEM_BYPASS=0 git commit -m x",
      gitCalls: [here("commit", "-m", "x")],
    },
    {
      behaviour: "a shell variable that is not exported does not reach git",
      command: "TANDEM_BYPASS=1; git commit -m x",
      gitCalls: [here("commit", "-m", "x")],
    },
  ])("$behaviour: $command", check);
});
