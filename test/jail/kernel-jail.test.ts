/**
 * The kernel guard end to end (docs/decisions/0054), as a non-root user: a live peer owns dirty
 * files, and a command run through `tandem jail` tries every way to write them, Tandem's state and
 * the installation. Never skipped: where the kernel will not jail, these tests fail and say why.
 */
import { type SpawnSyncReturns, spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  cpSync,
  existsSync,
  readFileSync,
  realpathSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { patient } from "../helpers/patience.js";
import { initRepo } from "../helpers/repo.js";
import { asRoot, DIST, fileTempDirs, jailEnv, jailUser, USER } from "./support.js";

let user: { uid: number; home: string };
let install: string;
let repo: string;
let scratch: string;
let agent: ReturnType<typeof spawn> | null = null;
const dirs = fileTempDirs();
const tempDir = dirs.make;

function env(): NodeJS.ProcessEnv {
  return jailEnv(user.home);
}

/** `argv` as the unprivileged user, in `cwd`. */
function run(argv: string[], cwd: string, input = ""): SpawnSyncReturns<string> {
  const [file, ...args] = asRoot ? ["runuser", "-u", USER, "--", ...argv] : argv;
  return spawnSync(file!, args, { cwd, env: env(), input, encoding: "utf8", timeout: patient(60_000) });
}

const tandem = (args: string[], cwd: string, input = "") =>
  run([process.execPath, join(install, "tandem.cjs"), ...args], cwd, input);

const chownAll = (dir: string) => {
  if (asRoot) expect(spawnSync("chown", ["-R", USER, dir]).status).toBe(0);
};

/** The peer's Write hook claims `file`; the agent process it names stays alive for the test. */
function peerClaims(file: string): void {
  const payload = {
    session_id: "peer-session",
    transcript_path: "/tmp/peer-session.jsonl",
    cwd: repo,
    hook_event_name: "PreToolUse",
    tool_name: "Write",
    tool_input: { file_path: join(repo, file), content: "peer\n" },
    tool_use_id: `toolu_${file.length}`,
  };
  const r = run(
    [
      "env",
      `CLAUDE_PID=${agent!.pid}`,
      process.execPath,
      join(install, "tandem.cjs"),
      "hook",
      "claude-code",
      "pre-tool-use",
    ],
    repo,
    JSON.stringify(payload),
  );
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout).not.toMatch(/"deny"/);
}

const ODD = "odd name\nwith newline.txt";

beforeAll(() => {
  user = jailUser();
  // The installation the jail guards, where the user can read it (a checkout under /root is not).
  install = tempDir("tandem-jail-install-");
  cpSync(DIST, install, { recursive: true });
  chmodSync(install, 0o755);
  // Its native modules (the store's SQLite) are found beside it, as in an npm install.
  symlinkSync(realpathSync(join(DIST, "..", "node_modules")), join(install, "node_modules"));
  scratch = tempDir("tandem-jail-scratch-");
  chmodSync(scratch, 0o777);
  repo = initRepo(tempDir("tandem-jail-repo-"), { "README.md": "hello\n", "mine.txt": "mine\n" });
  chownAll(repo);
  const [file, ...args] = asRoot ? ["runuser", "-u", USER, "--", "sleep", "600"] : ["sleep", "600"];
  agent = spawn(file!, args, { stdio: "ignore" });
  for (const f of ["peer.txt", ODD]) {
    peerClaims(f);
    expect(run(["sh", "-c", 'printf "peer work\\n" > "$0"', f], repo).status).toBe(0);
  }
});

afterAll(() => {
  agent?.kill();
  dirs.removeAll();
});

/** The jailed program: each attempt prints `name ok` or `name <errno name>`. */
const ATTEMPTS = String.raw`
import errno, os, subprocess, sys
install = sys.argv[1]
def attempt(name, fn):
    try:
        fn()
        print(name, "ok")
    except OSError as e:
        print(name, errno.errorcode.get(e.errno, e.errno))
def sh(cmd):
    r = subprocess.run(["sh", "-c", cmd], capture_output=True, text=True)
    if r.returncode != 0:
        raise OSError(errno.EROFS if "Read-only" in r.stderr else errno.EBUSY if "busy" in r.stderr else errno.EPERM, r.stderr)
attempt("shell-redirect", lambda: sh("echo x > peer.txt"))
attempt("python-write", lambda: open("peer.txt", "w").write("x"))
attempt("python-append", lambda: open("peer.txt", "a").write("x"))
attempt("rm", lambda: sh("rm -f peer.txt"))
attempt("mv-away", lambda: os.rename("peer.txt", "stolen.txt"))
open("decoy.txt", "w").write("decoy")
attempt("mv-over", lambda: os.rename("decoy.txt", "peer.txt"))
attempt("odd-name", lambda: open("odd name\nwith newline.txt", "w").write("x"))
attempt("truncate", lambda: os.truncate("peer.txt", 0))
attempt("state", lambda: open(".git/tandem/planted", "w").write("x"))
attempt("git-config", lambda: open(".git/config", "a").write("[core]\n\thooksPath = /tmp\n"))
attempt("git-hook", lambda: open(".git/hooks/pre-commit", "w").write("exit 0"))
attempt("install", lambda: open(install + "/tandem.cjs", "w").write("process.exit(0)"))
attempt("umount", lambda: sh("umount peer.txt"))
attempt("own-file", lambda: open("mine.txt", "w").write("mine, edited\n"))
attempt("new-file", lambda: open("new.txt", "w").write("new\n"))
`;

describe("tandem jail (as a non-root user)", () => {
  it("the kernel will jail here; if not, this machine cannot run the kernel guard and says why", () => {
    const r = tandem(["doctor"], repo);
    expect(r.stdout, `tandem doctor says:\n${r.stdout}${r.stderr}`).toMatch(/✓ kernel guard: available/);
  });

  it("the plan names the peer's files, the state and the installation", () => {
    const r = tandem(["jail", "--plan"], repo);
    expect(r.status, r.stderr).toBe(0);
    for (const p of [join(repo, "peer.txt"), join(repo, ODD), join(repo, ".git/tandem"), install])
      expect(r.stdout).toContain(`read-only ${JSON.stringify(p)}`);
    expect(r.stdout).not.toContain(JSON.stringify(join(repo, "mine.txt")));
  });

  it("the macOS seatbelt profile denies what does not move, and leaves the peer's files to the reader", () => {
    const r = tandem(["jail", "--seatbelt"], repo);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`(subpath ${JSON.stringify(join(repo, ".git/tandem"))})`);
    expect(r.stdout).toContain(`(subpath ${JSON.stringify(install)})`);
    expect(r.stdout).not.toContain(JSON.stringify(join(repo, "peer.txt")));
  });

  it("refuses every write to what is not the command's own, loses 0 bytes, and lets its own work through", () => {
    const program = join(scratch, "attempts.py");
    writeFileSync(program, ATTEMPTS);
    chmodSync(program, 0o644);
    const installed = readFileSync(join(install, "tandem.cjs"));
    const r = tandem(["jail", "--", "python3", program, install], repo);
    expect(r.status, r.stderr).toBe(0);
    const got = Object.fromEntries(
      r.stdout
        .trim()
        .split("\n")
        .map((l) => l.split(" ") as [string, string]),
    );
    const refused = ["EROFS", "EACCES", "EPERM", "EBUSY"];
    for (const name of [
      "shell-redirect",
      "python-write",
      "python-append",
      "rm",
      "mv-away",
      "mv-over",
      "odd-name",
      "truncate",
      "state",
      "git-config",
      "git-hook",
      "install",
      "umount",
    ])
      expect(refused, `${name}: ${got[name]}\n${r.stdout}`).toContain(got[name]);
    expect(got["own-file"]).toBe("ok");
    expect(got["new-file"]).toBe("ok");
    expect(readFileSync(join(repo, "peer.txt"), "utf8")).toBe("peer work\n");
    expect(readFileSync(join(repo, ODD), "utf8")).toBe("peer work\n");
    expect(existsSync(join(repo, ".git/tandem/planted"))).toBe(false);
    expect(existsSync(join(repo, ".git/hooks/pre-commit"))).toBe(false);
    expect(readFileSync(join(repo, ".git/config"), "utf8")).not.toContain("hooksPath");
    expect(readFileSync(join(install, "tandem.cjs")).equals(installed)).toBe(true);
    expect(readFileSync(join(repo, "mine.txt"), "utf8")).toBe("mine, edited\n");
    expect(statSync(join(repo, "new.txt")).uid).toBe(user.uid);
  });

  it("passes the command's output and exit code through", () => {
    const r = tandem(
      ["jail", "--", "sh", "-c", 'printf "out %s" "$1"; printf err >&2; exit 7', "-", "a b"],
      repo,
    );
    expect([r.status, r.stdout, r.stderr]).toEqual([7, "out a b", "err"]);
  });

  it("shows the owner's rename-save to a jailed reader, and the new version stays read-only", async () => {
    const flags = tempDir("tandem-jail-flags-");
    chmodSync(flags, 0o777);
    const reader = join(scratch, "reader.py");
    writeFileSync(
      reader,
      String.raw`
import os, sys, time
flags = sys.argv[1]
print("before", open("peer.txt").read().strip(), flush=True)
# Written whole, then renamed: the test reads the pid as soon as the name appears.
open(flags + "/ready.part", "w").write(str(os.getpid()))
os.rename(flags + "/ready.part", flags + "/ready")
while open("peer.txt").read().strip() != "v2": time.sleep(0.01)
print("after", open("peer.txt").read().strip(), flush=True)
while not os.path.exists(flags + "/go"): time.sleep(0.01)
try:
    open("peer.txt", "w").write("lost")
    print("write ok")
except OSError as e:
    print("write", e.strerror)
`,
    );
    chmodSync(reader, 0o644);
    const [file, ...args] = asRoot
      ? [
          "runuser",
          "-u",
          USER,
          "--",
          process.execPath,
          join(install, "tandem.cjs"),
          "jail",
          "--",
          "python3",
          reader,
          flags,
        ]
      : [process.execPath, join(install, "tandem.cjs"), "jail", "--", "python3", reader, flags];
    const child = spawn(file!, args, { cwd: repo, env: env(), stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    const ended = new Promise<number | null>((res) => child.on("exit", (c) => res(c)));
    const until = async (what: string, ok: () => boolean) => {
      const deadline = Date.now() + patient(20_000);
      while (!ok()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; output so far:\n${out}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    await until("the jailed reader", () => existsSync(join(flags, "ready")));
    const pid = readFileSync(join(flags, "ready"), "utf8");
    const mountinfo = () => readFileSync(`/proc/${pid}/mountinfo`, "utf8");
    const peerMount = ` ${join(repo, "peer.txt")} `;
    expect(mountinfo()).toContain(peerMount);
    // The owner saves by rename, as editors do: the kernel drops the jail's bind on the old file.
    const save = run(["sh", "-c", 'printf "v2\\n" > .peer.tmp && mv .peer.tmp peer.txt'], repo);
    expect(save.status, save.stderr).toBe(0);
    await until("the bind on the new version", () => mountinfo().includes(peerMount));
    writeFileSync(join(flags, "go"), "");
    expect(await ended).toBe(0);
    expect(out).toContain("before peer work");
    expect(out).toContain("after v2");
    expect(out).toContain("write Read-only file system");
    expect(readFileSync(join(repo, "peer.txt"), "utf8")).toBe("v2\n");
  });
});
