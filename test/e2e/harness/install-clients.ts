import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { withRegistryTls } from "../../helpers/registry-tls.js";
import { clientEnv, runProcess } from "./spawn.js";

/** Pinned: both clients change tool names and trust rules between releases. */
export const CLAUDE_VERSION = "2.1.332";
export const CODEX_VERSION = "0.171.0";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

/** Git-ignored (`.cache/`) and kept between runs: the install is ~700 MB. */
export const CLIENTS_DIR = join(REPO_ROOT, ".cache", "clients");

const INSTALL_TIMEOUT_MS = 5 * 60_000;
const LOCK_WAIT_MS = 6 * 60_000;
const MARKER = "installed.json";

export interface ClientBins {
  claude: string;
  codex: string;
}

const pending = new Map<string, Promise<ClientBins>>();

/**
 * Installs the pinned Claude Code and Codex into `dir` on first use and returns their native binaries.
 * Safe to call from several vitest workers at once; throws (never skips) when installing fails.
 */
export function ensureClients(dir: string = CLIENTS_DIR): Promise<ClientBins> {
  let p = pending.get(dir);
  if (!p) {
    p = ensureUncached(dir);
    pending.set(dir, p);
    p.catch(() => pending.delete(dir));
  }
  return p;
}

async function ensureUncached(dir: string): Promise<ClientBins> {
  const ready = installedBins(dir);
  if (ready) return ready;
  const release = await acquireLock(`${dir}.lock`);
  try {
    // Another worker may have finished while we waited for the lock.
    return installedBins(dir) ?? (await install(dir));
  } finally {
    release();
  }
}

function expectedMarker(): string {
  return JSON.stringify({ claude: CLAUDE_VERSION, codex: CODEX_VERSION, platform: platformKey() });
}

/** The binaries, if a completed install of exactly the pinned versions is present. */
function installedBins(dir: string): ClientBins | undefined {
  const marker = join(dir, MARKER);
  if (!existsSync(marker) || readFileSync(marker, "utf8") !== expectedMarker()) return undefined;
  return findBins(dir);
}

async function install(dir: string): Promise<ClientBins> {
  // A half-finished earlier attempt would confuse npm's idealTree; start clean.
  rmSync(join(dir, MARKER), { force: true });
  rmSync(join(dir, "node_modules"), { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // Own package.json so npm does not walk up and treat the Tandem checkout as the project.
  writeFileSync(join(dir, "package.json"), '{ "name": "tandem-e2e-clients", "private": true }\n');
  const args = [
    "install",
    "--prefix",
    dir,
    "--no-save",
    "--no-audit",
    "--no-fund",
    // Claude's postinstall only links the platform binary; we run that binary directly instead.
    "--ignore-scripts",
    // claude-code declares node>=22 although it ships a native binary.
    "--engine-strict=false",
    "--loglevel=error",
    `@anthropic-ai/claude-code@${CLAUDE_VERSION}`,
    `@openai/codex@${CODEX_VERSION}`,
  ];
  const res = await runProcess("npm", args, {
    cwd: dir,
    env: withRegistryTls(clientEnv()),
    timeoutMs: INSTALL_TIMEOUT_MS,
  });
  if (res.exitCode !== 0) {
    const why = res.timedOut
      ? `timed out after ${INSTALL_TIMEOUT_MS} ms`
      : `exit ${res.exitCode ?? res.signal}`;
    throw new Error(
      `e2e: installing the real clients into ${dir} failed (${why}):\n${res.stderr.slice(-4000)}`,
    );
  }
  const bins = findBins(dir);
  if (!bins) throw new Error(`e2e: npm install succeeded but the client binaries are missing in ${dir}`);
  writeFileSync(join(dir, MARKER), expectedMarker());
  return bins;
}

function platformKey(): string {
  return `${process.platform}-${process.arch}`;
}

/** Rust target triple the Codex platform package uses for its vendor folder. */
function codexTriple(): string {
  const arch = process.arch === "arm64" ? "aarch64" : "x86_64";
  if (process.platform === "linux") return `${arch}-unknown-linux-musl`;
  if (process.platform === "darwin") return `${arch}-apple-darwin`;
  throw new Error(`e2e: no Codex binary for ${platformKey()}`);
}

function findBins(dir: string): ClientBins | undefined {
  const nm = join(dir, "node_modules");
  if (readVersion(join(nm, "@anthropic-ai/claude-code")) !== CLAUDE_VERSION) return undefined;
  if (readVersion(join(nm, "@openai/codex")) !== CODEX_VERSION) return undefined;
  const claude = [
    join(nm, `@anthropic-ai/claude-code-${platformKey()}`, "claude"),
    // Where the (skipped) postinstall would have linked it.
    join(nm, "@anthropic-ai/claude-code/bin/claude.exe"),
  ].find(isNativeBinary);
  const codex = join(nm, `@openai/codex-${platformKey()}`, "vendor", codexTriple(), "bin", "codex");
  if (!claude || !isNativeBinary(codex)) return undefined;
  return { claude, codex };
}

function readVersion(pkgDir: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

/** The npm packages can ship small placeholder files; the real binaries are tens of MB. */
function isNativeBinary(path: string): boolean {
  try {
    return statSync(path).size > 1_000_000;
  } catch {
    return false;
  }
}

/** A mkdir lock shared by vitest worker processes; a lock left by a dead process is broken. */
async function acquireLock(lockDir: string): Promise<() => void> {
  mkdirSync(dirname(lockDir), { recursive: true });
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      mkdirSync(lockDir);
      writeFileSync(join(lockDir, "pid"), String(process.pid));
      return () => rmSync(lockDir, { recursive: true, force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
    if (lockIsStale(lockDir)) {
      rmSync(lockDir, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`e2e: timed out waiting for the install lock ${lockDir}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

function lockIsStale(lockDir: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(lockDir, "pid"), "utf8"));
  } catch {
    // Owner has not written its pid yet, or the lock just went away; judge by age.
    try {
      return Date.now() - statSync(lockDir).mtimeMs > 30_000;
    } catch {
      return false;
    }
  }
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/** Copilot CLI: a ~200 MB native binary per platform; repository hooks and gpt-5's apply_patch as of this. */
/**
 * One npm package installed alone into `dir` (its own marker, so installing it never reinstalls or
 * waits on another client): memoized per process, locked across vitest workers, and throwing —
 * never skipping — when the install fails. Resolves with what `find` locates in it.
 */
interface PinnedPackage {
  dir: string;
  /** What npm installs, e.g. `@github/copilot@1.0.102`. */
  spec: string;
  /** The marker's text for exactly this install (version and platform). */
  marker: string;
  /** The binary or entry point to run, once installed; undefined when absent. */
  find: (dir: string) => string | undefined;
  npmArgs?: readonly string[];
}

const pendingPackages = new Map<string, Promise<string>>();

function ensurePackage(p: PinnedPackage): Promise<string> {
  let done = pendingPackages.get(p.dir);
  if (!done) {
    done = ensurePackageUncached(p);
    pendingPackages.set(p.dir, done);
    done.catch(() => pendingPackages.delete(p.dir));
  }
  return done;
}

function installedPackage(p: PinnedPackage): string | undefined {
  const marker = join(p.dir, MARKER);
  return existsSync(marker) && readFileSync(marker, "utf8") === p.marker ? p.find(p.dir) : undefined;
}

async function ensurePackageUncached(p: PinnedPackage): Promise<string> {
  const ready = installedPackage(p);
  if (ready) return ready;
  const release = await acquireLock(`${p.dir}.lock`);
  try {
    const again = installedPackage(p);
    if (again) return again;
    rmSync(join(p.dir, MARKER), { force: true });
    rmSync(join(p.dir, "node_modules"), { recursive: true, force: true });
    mkdirSync(p.dir, { recursive: true });
    writeFileSync(join(p.dir, "package.json"), '{ "name": "tandem-e2e-client", "private": true }\n');
    const args = ["install", "--prefix", p.dir, "--no-save", "--no-audit", "--no-fund", "--loglevel=error"];
    const res = await runProcess("npm", [...args, ...(p.npmArgs ?? []), p.spec], {
      cwd: p.dir,
      env: withRegistryTls(clientEnv()),
      timeoutMs: INSTALL_TIMEOUT_MS,
    });
    const found = res.exitCode === 0 ? p.find(p.dir) : undefined;
    if (!found) {
      const why = res.timedOut
        ? `timed out after ${INSTALL_TIMEOUT_MS} ms`
        : res.exitCode === 0
          ? "installed, but what it should contain is missing"
          : `exit ${res.exitCode ?? res.signal}`;
      throw new Error(`e2e: installing ${p.spec} into ${p.dir} failed (${why}):\n${res.stderr.slice(-4000)}`);
    }
    writeFileSync(join(p.dir, MARKER), p.marker);
    return found;
  } finally {
    release();
  }
}

export const COPILOT_VERSION = "1.0.102";
/** Its own folder and marker: installing it never reinstalls (or waits on) the clients above. */
export const COPILOT_DIR = join(CLIENTS_DIR, "copilot");

/** Installs the pinned Copilot CLI into `dir` on first use and returns its native binary; throws on failure. */
export function ensureCopilot(dir: string = COPILOT_DIR): Promise<string> {
  return ensurePackage({
    dir,
    spec: `@github/copilot@${COPILOT_VERSION}`,
    marker: JSON.stringify({ copilot: COPILOT_VERSION, platform: platformKey() }),
    find: copilotBin,
  });
}

/** npm names Copilot's platform packages `linux`, `linuxmusl`, `darwin`, `win32`. */
function copilotBin(dir: string): string | undefined {
  const nm = join(dir, "node_modules", "@github");
  if (readVersion(join(nm, "copilot")) !== COPILOT_VERSION) return undefined;
  const platforms = process.platform === "linux" ? ["linux", "linuxmusl"] : [process.platform];
  return platforms.map((p) => join(nm, `copilot-${p}-${process.arch}`, "copilot")).find(isNativeBinary);
}

/** Gemini CLI, pinned like the others: its tool names, trust rules and hook fields change between releases. */
export const GEMINI_VERSION = "0.61.0";

/**
 * Installs the pinned Gemini CLI into its own folder (`.cache/clients/gemini`, ~100 MB) on first use
 * and returns its Node entry point (`bundle/gemini.js`, run with this Node). Kept apart from the
 * Claude/Codex install so a version bump of one does not reinstall the others. Throws, never skips.
 */
export function ensureGemini(dir: string = join(CLIENTS_DIR, "gemini")): Promise<string> {
  return ensurePackage({
    dir,
    spec: `@google/gemini-cli@${GEMINI_VERSION}`,
    marker: JSON.stringify({ gemini: GEMINI_VERSION }),
    find: geminiEntry,
    npmArgs: ["--ignore-scripts"],
  });
}

function geminiEntry(dir: string): string | undefined {
  const pkg = join(dir, "node_modules", "@google", "gemini-cli");
  const entry = join(pkg, "bundle", "gemini.js");
  return readVersion(pkg) === GEMINI_VERSION && existsSync(entry) ? entry : undefined;
}

/** Qwen Code, pinned: its hook events, tool names and trust rules follow Gemini CLI's and change between releases. */
export const QWEN_CODE_VERSION = "0.24.4";

/**
 * Installs the pinned Qwen Code into its own folder (`.cache/clients/qwen-code`) on first use and
 * returns its Node entry point (`cli.js`, run with this Node). Its own marker, so installing it
 * never reinstalls (or waits on) another client. Optional native extras (terminal, clipboard,
 * audio, images) are skipped: a headless run needs none of them. Throws, never skips.
 */
export function ensureQwenCode(dir: string = join(CLIENTS_DIR, "qwen-code")): Promise<string> {
  return ensurePackage({
    dir,
    spec: `@qwen-code/qwen-code@${QWEN_CODE_VERSION}`,
    marker: JSON.stringify({ qwenCode: QWEN_CODE_VERSION }),
    find: qwenCodeEntry,
    // It declares node>=22 but runs on the project's Node 20.16+ (docs/clients.md §15.5).
    npmArgs: ["--ignore-scripts", "--omit=optional", "--engine-strict=false"],
  });
}

function qwenCodeEntry(dir: string): string | undefined {
  const pkg = join(dir, "node_modules", "@qwen-code", "qwen-code");
  const entry = join(pkg, "cli.js");
  return readVersion(pkg) === QWEN_CODE_VERSION && existsSync(entry) ? entry : undefined;
}

/** Cline CLI, pinned: its hook payloads and tool names change between releases (docs/clients.md §14). */
export const CLINE_VERSION = "3.0.65";

/**
 * Installs the pinned Cline CLI into its own folder (`.cache/clients/cline`, ~430 MB with its Bun
 * binary) on first use and returns its launcher `bin/cline`. Throws, never skips.
 */
export function ensureCline(dir: string = join(CLIENTS_DIR, "cline")): Promise<string> {
  return ensurePackage({
    dir,
    spec: `cline@${CLINE_VERSION}`,
    marker: JSON.stringify({ cline: CLINE_VERSION, platform: platformKey() }),
    find: clineBin,
  });
}

/** The launcher, once the platform package holding the real binary is there too. */
function clineBin(dir: string): string | undefined {
  const nm = join(dir, "node_modules");
  const bin = join(nm, "cline", "bin", "cline");
  if (readVersion(join(nm, "cline")) !== CLINE_VERSION || !existsSync(bin)) return undefined;
  const os = process.platform === "win32" ? "windows" : process.platform;
  return isNativeBinary(join(nm, "@cline", `cli-${os}-${process.arch}`, "bin", "cline")) ? bin : undefined;
}

/** opencode, pinned: its plugin hooks, tool names and headless run change between releases. */
export const OPENCODE_VERSION = "1.18.33";

/**
 * Installs the pinned opencode into its own folder (`.cache/clients/opencode`, ~190 MB: a native
 * binary per platform, which the package's postinstall links) and returns the binary; throws on failure.
 */
export function ensureOpencode(dir: string = join(CLIENTS_DIR, "opencode")): Promise<string> {
  return ensurePackage({
    dir,
    spec: `opencode-ai@${OPENCODE_VERSION}`,
    marker: JSON.stringify({ opencode: OPENCODE_VERSION, platform: platformKey() }),
    find: opencodeBin,
  });
}

/** npm installs the platform package (`opencode-linux-x64`, …) beside the launcher package. */
function opencodeBin(dir: string): string | undefined {
  const nm = join(dir, "node_modules");
  if (readVersion(join(nm, "opencode-ai")) !== OPENCODE_VERSION) return undefined;
  const os = process.platform === "win32" ? "windows" : process.platform;
  return [
    join(nm, `opencode-${os}-${process.arch}`, "bin", "opencode"),
    join(nm, "opencode-ai", "bin", "opencode.exe"),
  ].find(isNativeBinary);
}
