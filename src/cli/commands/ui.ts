import { spawn } from "node:child_process";
import { Command, InvalidArgumentError } from "commander";
import { defaultAssetsDir } from "../../ui/assets.js";
import { startUiServer } from "../../ui/server.js";
import { findProject, type Io } from "../context.js";

interface UiOptions {
  port: number;
  open?: boolean;
  root?: string;
}

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new InvalidArgumentError("expected a port from 0 to 65535 (0 picks a free one)");
  return n;
}

/** The system's own opener; a failure only means the user opens the printed URL by hand. */
function openBrowser(url: string, io: Io): void {
  const [cmd, args] =
    process.platform === "darwin"
      ? ["open", [url]]
      : process.platform === "win32"
        ? ["cmd", ["/c", "start", "", url]]
        : ["xdg-open", [url]];
  const child = spawn(cmd, args as string[], { stdio: "ignore", detached: true });
  child.on("error", () => io.err(`tandem ui: could not run ${cmd}; open the URL above by hand\n`));
  child.unref();
}

/** Runs until SIGINT or SIGTERM; the store is only read. */
function untilStopped(): Promise<void> {
  return new Promise((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
}

export function uiCommand(io: Io): Command {
  return new Command("ui")
    .description("Live read-only board in the browser: sessions, claims, events, sub-agents, problems")
    .option("--port <n>", "port on 127.0.0.1 to serve on (default: a free one)", port, 0)
    .option("--open", "open the board in the default browser")
    .option("--no-open", "only print the URL (the default)")
    .addHelpText(
      "after",
      `
The board listens on 127.0.0.1 only and prints its URL, which carries a random
token: without it (or the cookie the first visit sets) every request gets 401.
It only reads the store and pushes changes to the page as they are recorded;
actions (release, apply) stay in the command line. Ctrl-C stops it.

Examples:
  tandem ui
  tandem ui --open
  tandem ui --port 8765
`,
    )
    .action(async (_o: UiOptions, cmd: Command) => {
      const opts = cmd.optsWithGlobals<UiOptions>();
      const project = findProject(io, opts.root);
      const server = await startUiServer({
        ctx: {
          root: project.resolved.root,
          repoTop: project.resolved.repo?.top ?? null,
          stateDir: project.stateDir,
          loaded: project.loaded,
          env: io.env,
        },
        port: opts.port,
        assetsDir: defaultAssetsDir(),
      });
      io.out(`Tandem board: ${server.url}\n(read-only; Ctrl-C stops it)\n`);
      if (opts.open === true) openBrowser(server.url, io);
      await untilStopped();
      await server.close();
    });
}
