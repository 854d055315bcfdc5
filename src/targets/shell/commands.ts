/**
 * The table of known commands: those that never write files, and a handler for
 * each one whose writes we can name. Any other command is opaque.
 */
import { posix } from "node:path";
import {
  forgetsNamed,
  handleDeclare,
  handleEval,
  handleLeave,
  handleSet,
  handleShopt,
  handleSource,
} from "./builtins.js";
import { handleCd, handlePopd, handlePushd } from "./cwd.js";
import {
  handleApplyPatch,
  handleChmod,
  handleChown,
  handleDd,
  handleFind,
  handleInstall,
  handleMv,
  handlePerl,
  handleSed,
  handleSort,
  handleUniq,
  operandsWritten,
} from "./file-commands.js";
import { handleGit } from "./git.js";
import { handleCp, handleLink, handleLn } from "./links.js";
import { handleEcho, handlePrintf } from "./output.js";
import { handleExec, handleNode, handleNpx, handleTandem, isTandemProgram } from "./tandem.js";
import type { Arg, CommandContext, Handler } from "./types.js";
import { handleCommand, handleEnv, handleShell, handleSudo, handleTime, wrapper } from "./wrappers.js";
import { handleXargs } from "./xargs.js";

/** How a command is judged, by its name as run (`/usr/bin/rm` is `rm`; `./build.sh` stays unknown). */
export function commandHandler(name: string): Handler {
  if (isTandemProgram(name)) return handleTandem;
  const command = name.startsWith("/") ? posix.basename(name) : name;
  if (READ_ONLY.has(command)) return readOnly;
  // Own properties only: `toString` or `constructor` as a command must not find Object's.
  return Object.hasOwn(HANDLERS, command) ? HANDLERS[command]! : opaque;
}

/** Commands that never write files (output goes to stdout; redirections are seen separately). */
const READ_ONLY = new Set(
  [
    ": true false test [ pwd ls dir vdir cat tac nl head tail less more",
    "grep egrep fgrep rg ag ack wc cut tr paste join column fold fmt expand unexpand rev comm cmp diff",
    "od hexdump strings file stat du df realpath readlink basename dirname which whereis type hash",
    "date whoami id uname hostname printenv locale nproc uptime ps pgrep jobs wait sleep seq yes",
    "md5sum sha1sum sha256sum sha512sum shasum cksum b2sum base64 base32 jq",
    "alias unalias shift exit history help man tput clear umask ulimit",
  ]
    .join(" ")
    .split(" "),
);

const readOnly: Handler = () => {};

const opaque: Handler = (_args, ctx) => ctx.walker.markOpaque();

/** npm / pnpm / yarn subcommands that do not change the project's files. */
const PACKAGE_MANAGER_READ_ONLY = new Set(
  "test t tst ls list view info outdated help why explain whoami ping root prefix bin audit".split(" "),
);

/** Subcommands that run a package's program (`npm exec`, `pnpm dlx`, `bun x` …). */
const PACKAGE_MANAGER_EXEC = new Set(["exec", "x", "dlx"]);

function handlePackageManager(args: Arg[], ctx: CommandContext): void {
  const at = args.findIndex((arg) => arg === null || !arg.startsWith("-"));
  const sub = args[at];
  if (typeof sub === "string" && PACKAGE_MANAGER_EXEC.has(sub)) handleExec(args.slice(at + 1), ctx);
  // `yarn tandem …`, `pnpm tandem …` run a bin of the project by its name.
  else if (typeof sub === "string" && isTandemProgram(sub)) handleTandem(args.slice(at + 1), ctx);
  else if (sub === null || sub === undefined || !PACKAGE_MANAGER_READ_ONLY.has(sub)) ctx.walker.markOpaque();
  else if (sub === "audit" && args.includes("fix")) ctx.walker.markOpaque();
}

const HANDLERS: Record<string, Handler> = {
  rm: operandsWritten(),
  rmdir: operandsWritten(),
  unlink: operandsWritten(),
  shred: operandsWritten({ valued: "nsu", long: ["--iterations", "--size", "--remove"] }),
  touch: operandsWritten({ valued: "drt", long: ["--date", "--reference"] }),
  mkdir: operandsWritten({ valued: "m", long: ["--mode"] }),
  mkfifo: operandsWritten({ valued: "m", long: ["--mode"] }),
  tee: operandsWritten(),
  truncate: operandsWritten({ valued: "sr", long: ["--size", "--reference"] }),
  mv: handleMv,
  cp: handleCp,
  ln: handleLn,
  link: handleLink,
  install: handleInstall,
  sed: handleSed,
  perl: handlePerl,
  chmod: handleChmod,
  chown: handleChown,
  chgrp: handleChown,
  dd: handleDd,
  sort: handleSort,
  uniq: handleUniq,
  find: handleFind,
  git: handleGit,
  apply_patch: handleApplyPatch,
  applypatch: handleApplyPatch,
  patch: opaque,
  eval: handleEval,
  source: handleSource,
  ".": handleSource,
  xargs: handleXargs,
  trap: opaque,
  read: forgetsNamed("REPLY"),
  mapfile: forgetsNamed("MAPFILE"),
  readarray: forgetsNamed("MAPFILE"),
  getopts: forgetsNamed("OPTARG", "OPTIND"),
  let: forgetsNamed(),
  unset: forgetsNamed(),
  export: forgetsNamed(),
  declare: handleDeclare,
  typeset: handleDeclare,
  local: handleDeclare,
  readonly: forgetsNamed(),
  printf: handlePrintf,
  echo: handleEcho,
  shopt: handleShopt,
  set: handleSet,
  break: handleLeave,
  continue: handleLeave,
  return: handleLeave,
  node: handleNode,
  nodejs: handleNode,
  npx: handleNpx,
  pnpx: handleNpx,
  bunx: handleNpx,
  bash: handleShell,
  sh: handleShell,
  dash: handleShell,
  zsh: handleShell,
  ksh: handleShell,
  cd: handleCd,
  pushd: handlePushd,
  popd: handlePopd,
  env: handleEnv,
  command: handleCommand,
  builtin: wrapper({ inShell: true }),
  exec: wrapper({ valued: "a" }),
  nohup: wrapper(),
  nice: wrapper({ valued: "n", long: ["--adjustment"] }),
  time: handleTime,
  timeout: wrapper({ valued: "sk", long: ["--signal", "--kill-after"], skipOperands: 1 }),
  stdbuf: wrapper({ valued: "ioe", long: ["--input", "--output", "--error"] }),
  sudo: handleSudo,
  doas: wrapper({ valued: "uC" }),
  npm: handlePackageManager,
  pnpm: handlePackageManager,
  yarn: handlePackageManager,
  bun: handlePackageManager,
  setsid: wrapper(),
};
