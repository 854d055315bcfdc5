import { Command } from "commander";
import { PLAIN } from "../../core/printed.js";
import { TandemError, UsageError } from "../../errors.js";
import { subRunning } from "../../subagents/apply/apply.js";
import { captureWiring } from "../../subagents/apply/wiring.js";
import { recordCapture } from "../../subagents/capture/record.js";
import { discardSub, removeSub } from "../../subagents/lifecycle/cleanup.js";
import { captureLines, listText, showText } from "../../subagents/lifecycle/report.js";
import type { SubCtx } from "../../subagents/shared/ctx.js";
import {
  allSubs,
  appliesOf,
  type CaptureRecord,
  findSub,
  latestCapture,
  type SubRecord,
} from "../../subagents/shared/records.js";
import type { Io } from "../context.js";
import { routeOutput } from "../program.js";
import { subApplyCommand } from "./sub-apply.js";
import { type CommonOptions, printJson, withSubCtx } from "./sub-common.js";
import { subRunCommand } from "./sub-run.js";

interface ListOptions extends CommonOptions {
  all?: boolean;
}

interface DiscardOptions extends CommonOptions {
  yes?: boolean;
}

function details(ctx: SubCtx, sub: SubRecord) {
  return {
    sub,
    running: subRunning(sub),
    capture: latestCapture(ctx.db, sub),
    applies: appliesOf(ctx.db, sub.id),
  };
}

/** Whether a capture holds all of the child's work, finished: anything else exits 1. */
function isComplete(c: CaptureRecord): boolean {
  return c.ok && c.uncaptured.length === 0 && c.inProgress === null && c.conflictMarkers.length === 0;
}

function listCommand(io: Io): Command {
  return new Command("list")
    .description("List sub-agents: how each ended, what was captured, where it was applied")
    .addHelpText("after", "\nExample:\n  tandem sub list --all\n")
    .option("--all", "include removed and discarded sub-agents")
    .option("--json", "print a JSON array")
    .action(async (_o: ListOptions, cmd: Command) => {
      const opts = cmd.optsWithGlobals<ListOptions>();
      let printer = PLAIN;
      const rows = await withSubCtx(io, opts, (ctx) => {
        printer = ctx.printer;
        return allSubs(ctx.db)
          .filter((s) => opts.all || s.removal === null)
          .map((s) => details(ctx, s));
      });
      if (opts.json) printJson(io, rows);
      else io.out(listText(rows, printer));
    });
}

function showCommand(io: Io): Command {
  return new Command("show")
    .description("Show one sub-agent: exit, what was and was not captured, each target's apply state")
    .addHelpText("after", "\nExample:\n  tandem sub show fix --json\n")
    .argument("<id>", "sub-agent id or name")
    .option("--json", "print a JSON object")
    .action(async (id: string, _o: CommonOptions, cmd: Command) => {
      const opts = cmd.optsWithGlobals<CommonOptions>();
      let printer = PLAIN;
      const d = await withSubCtx(io, opts, (ctx) => {
        printer = ctx.printer;
        const found = details(ctx, findSub(ctx.db, id));
        return { ...found, wiring: captureWiring(ctx, found.capture) };
      });
      if (opts.json) printJson(io, d);
      else io.out(showText(d.sub, d.running, d.capture, d.applies, d.wiring, printer));
    });
}

function captureCommand(io: Io): Command {
  return new Command("capture")
    .description("Capture the child's worktree again; the new capture supersedes the older ones")
    .addHelpText("after", "\nExample:\n  tandem sub capture fix\n")
    .argument("<id>", "sub-agent id or name")
    .option("--json", "print the capture as JSON")
    .option("--session <id>", "the calling session (default: the calling agent's)")
    .action(async (id: string, _o: CommonOptions, cmd: Command) => {
      const opts = cmd.optsWithGlobals<CommonOptions>();
      let printer = PLAIN;
      const c = await withSubCtx(io, opts, async (ctx) => {
        printer = ctx.printer;
        const sub = findSub(ctx.db, id);
        if (sub.removal) throw new TandemError(`${sub.id} was ${sub.removal}; its worktree is gone.`);
        if (subRunning(sub))
          io.err(`tandem: warning: ${sub.id} is still running; this capture may miss later work.\n`);
        return { sub, capture: await recordCapture(ctx, sub) };
      });
      if (opts.json) printJson(io, c.capture);
      else io.out(`${c.sub.id}\n${captureLines(c.capture, c.sub, printer).join("\n")}\n`);
      if (!isComplete(c.capture)) io.exitCode = 1;
    });
}

function removeCommand(io: Io): Command {
  return new Command("remove")
    .description("Delete the child's worktree and branch, only when its latest capture holds everything")
    .addHelpText("after", "\nExample:\n  tandem sub remove fix\n")
    .argument("<id>", "sub-agent id or name")
    .option("--session <id>", "the calling session (default: the calling agent's)")
    .action(async (id: string, _o: CommonOptions, cmd: Command) => {
      const opts = cmd.optsWithGlobals<CommonOptions>();
      const r = await withSubCtx(io, opts, (ctx) => removeSub(ctx, findSub(ctx.db, id)));
      (r.ok ? io.out : io.err)(`${r.message}\n`);
      if (!r.ok) io.exitCode = 1;
    });
}

async function confirm(sub: SubRecord): Promise<boolean> {
  if (process.stdin.isTTY !== true) {
    throw new UsageError(
      `sub discard ${sub.id} deletes work for good; pass --yes to confirm it non-interactively.`,
    );
  }
  const rl = process
    .getBuiltinModule("node:readline/promises")
    .createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(
      `Discard ${sub.id}: delete ${sub.worktree} and branch ${sub.branch}, with anything not applied? Type the id to confirm: `,
    );
    return answer.trim() === sub.id || (sub.name !== null && answer.trim() === sub.name);
  } finally {
    rl.close();
  }
}

function discardCommand(io: Io): Command {
  return new Command("discard")
    .description("Delete the child's worktree and branch regardless of what was captured (asks first)")
    .addHelpText("after", "\nExample:\n  tandem sub discard fix --yes\n")
    .argument("<id>", "sub-agent id or name")
    .option("--yes", "do not ask (for scripts)")
    .option("--session <id>", "the calling session (default: the calling agent's)")
    .action(async (id: string, _o: DiscardOptions, cmd: Command) => {
      const opts = cmd.optsWithGlobals<DiscardOptions>();
      const r = await withSubCtx(io, opts, async (ctx) => {
        const sub = findSub(ctx.db, id);
        if (!opts.yes && sub.removal === null && !(await confirm(sub))) {
          return { ok: false, message: "not confirmed; nothing was discarded." };
        }
        return discardSub(ctx, sub);
      });
      (r.ok ? io.out : io.err)(`${r.message}\n`);
      if (!r.ok) io.exitCode = 1;
    });
}

/** `tandem sub …`: fork-isolated sub-agents (docs/product.md §7). */
export function subCommand(io: Io): Command {
  const sub = new Command("sub")
    .description("Run child agents in their own worktrees and apply their work back")
    .addHelpText(
      "after",
      '\nExamples:\n  tandem sub run --name fix -- sh -c "make fix"\n  tandem sub list\n  tandem sub apply fix\n',
    )
    // The program gives `sub` its settings (exit override, output) after this returns: pass them on at dispatch.
    .hook("preSubcommand", (self, child) => {
      routeOutput(child.copyInheritedSettings(self), io);
    });
  const makers = [
    subRunCommand,
    listCommand,
    showCommand,
    captureCommand,
    subApplyCommand,
    removeCommand,
    discardCommand,
  ];
  for (const make of makers) sub.addCommand(make(io));
  return sub;
}
