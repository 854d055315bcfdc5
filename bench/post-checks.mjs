// Issue 37 items 1 and 2 at post-tool-use, through the wired thin client with the resident server up:
// a Write (small, 1 MB, 4 MB) and an Edit whose file holds what the call meant (item 1 compares and
// finds them equal), the same calls with the check a no-op (the payload's content under a key the
// check does not read: same size, so the transport costs the same — the hook as it was before item
// 1), the save path (another writer changed the file after the call: the meant bytes stored durably,
// the clobber recorded, the owner told), and item 2's content check (a kept file of the owner's
// overwritten keeping its size and mtime, caught by the ctime in its stamp and hashed).
// BENCH_POST_CHECKS_ROUNDS sets the rounds; BENCH_KEEP_WORK=1 keeps the repository and its store to inspect.
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { compare, median, pairedRatio, spreadTable } from "./lib.mjs";
import {
  buildOf,
  cpuMs,
  postThin,
  repoFixture,
  servedEnv,
  startServer,
  stopServer,
  thinRequest,
} from "./server-fixtures.mjs";
import { nodeZero } from "./server-hooks.mjs";

const KB = 1024;
const MB = 1024 * KB;

/** `bytes` of source-like text, with `tag` (a round's mark) in its first line. */
function text(bytes, tag) {
  const line = "const value = 'payload line — ünïcödé';\n";
  const head = `// ${tag}\n`;
  return head + line.repeat(Math.max(0, Math.ceil((bytes - head.length) / Buffer.byteLength(line))));
}

const payload = (repo, event, id, tool, input, response) =>
  JSON.stringify({
    session_id: "bench-me",
    cwd: repo,
    hook_event_name: event,
    tool_name: tool,
    tool_input: input,
    ...(response ? { tool_response: response } : {}),
    tool_use_id: id,
  });

/**
 * One post-tool-use case: `round(r)` returns the call's tool input and the bytes the file holds
 * when the post-tool-use runs (what the tool left, or what another writer left after it). The
 * pre-tool-use and the file's write happen untimed in `before`.
 */
function postCase(ctx, name, file, tool, round, extra = () => {}) {
  let r = 0;
  const c = {
    name,
    cmd: ctx.thin,
    args: ["hook", "claude-code", "post-tool-use"],
    cwd: ctx.repo,
    env: ctx.env,
    okCodes: [0, 2],
  };
  c.before = () => {
    const id = `toolu_${file.replace(/\W/g, "_")}_${r}`;
    const { input, held } = round(r++);
    const abs = join(ctx.repo, file);
    execFileSync(ctx.thin, ["hook", "claude-code", "pre-tool-use"], {
      cwd: ctx.repo,
      env: ctx.env,
      input: payload(ctx.repo, "PreToolUse", id, tool, { file_path: abs, ...input }),
      stdio: ["pipe", "ignore", "pipe"],
    });
    writeFileSync(abs, held);
    extra();
    c.input = payload(ctx.repo, "PostToolUse", id, tool, { file_path: abs, ...input }, { filePath: abs });
  };
  return c;
}

/** A Write of `bytes`; `checked: false` hides the content from item 1 under another key (same size). */
const writeRound =
  (bytes, checked, clobbered = false) =>
  (r) => {
    const content = text(bytes, `round ${r}`);
    const input = checked ? { content } : { content_unread: content };
    // The save path: another writer rewrote the file after the Write, to bytes of the same size.
    const held = clobbered ? content.replace(`round ${r}`, `other ${r}`) : content;
    return { input, held };
  };

/**
 * An Edit of a 64 KiB file: the mark of the round before replaced by this round's. Item 1 applies
 * it to the owner's newest kept version (read back from the blob store) and compares.
 */
const editRound = (checked) => {
  const body = text(64 * KB, "round 0");
  return (r) => {
    if (r === 0) return { input: { content: body }, held: body };
    const input = checked
      ? { old_string: `round ${r - 1}`, new_string: `round ${r}` }
      : { old_string_unread: `round ${r - 1}`, new_string_unread: `round ${r}` };
    return { input, held: body.replace("round 0", `round ${r}`) };
  };
};

/** Edit cases start with one untimed Write, so there is a kept version the first edit applies to. */
function editCase(ctx, name, file, checked) {
  const round = editRound(checked);
  const c = postCase(ctx, name, file, "Edit", (r) => round(r + 1));
  const seed = postCase(ctx, `${name} (seed)`, file, "Write", () => round(0));
  return { c, seed };
}

/**
 * Item 2: the owner's kept 1 MB file rewritten between calls to other bytes of the same size, its
 * mtime set back (`cp -p`, `rsync -t`): only its ctime and inode tell, and its bytes are hashed.
 */
function sameStampOverwrite(ctx, file) {
  const abs = join(ctx.repo, file);
  let n = 0;
  return () => {
    const st = statSync(abs);
    const old = readFileSync(abs, "utf8");
    writeFileSync(abs, old.replace(/^\/\/ [^\n]*/, `// overwrite ${String(n++).padStart(6, "0")}`));
    utimesSync(abs, st.atime, st.mtime);
  };
}

export async function postChecksBench(bin, rounds) {
  const { work, repo, env } = repoFixture("tandem-bench-post-checks-");
  const server = startServer(bin, repo, env);
  const ctx = { repo, env: servedEnv(env), thin: join(dirname(bin), "tandem") };
  try {
    const w = (label, file, bytes, checked, clobbered) =>
      postCase(ctx, label, file, "Write", writeRound(bytes, checked, clobbered));
    const cases = [
      w("Write 1 KB, check a no-op (as before item 1)", "w1k-off.txt", KB, false),
      w("Write 1 KB, file holds the meant bytes", "w1k-on.txt", KB, true),
      w("Write 1 MB, check a no-op", "w1m-off.txt", MB, false),
      w("Write 1 MB, file holds the meant bytes", "w1m-on.txt", MB, true),
      w("Write 4 MB, check a no-op", "w4m-off.txt", 4 * MB, false),
      w("Write 4 MB, file holds the meant bytes", "w4m-on.txt", 4 * MB, true),
    ];
    const editOff = editCase(ctx, "Edit of 64 KB, check a no-op", "e-off.txt", false);
    const editOn = editCase(ctx, "Edit of 64 KB, file holds the edited bytes", "e-on.txt", true);
    cases.push(editOff.c, editOn.c);
    cases.push(
      w("Write 1 KB, another writer changed it after (save path)", "s1k.txt", KB, true, true),
      w("Write 1 MB, another writer changed it after (save path)", "s1m.txt", MB, true, true),
    );
    // Item 2: a kept 1 MB file of the owner's, seeded by one Write, overwritten keeping size and mtime.
    const kept = w("(seed of the kept file)", "kept-1m.txt", MB, true);
    const item2 = postCase(
      ctx,
      "Write 1 KB + a kept 1 MB file overwritten keeping size and mtime (item 2 catches it)",
      "w1k-item2.txt",
      "Write",
      writeRound(KB, true),
      sameStampOverwrite(ctx, "kept-1m.txt"),
    );
    cases.push(item2);
    // Warm-up: every case once, the seeds first (claims taken, first versions kept, caches filled).
    for (const c of [editOff.seed, editOn.seed, kept, ...cases]) {
      c.before();
      execFileSync(c.cmd, c.args, {
        cwd: c.cwd,
        env: c.env,
        input: c.input,
        stdio: ["pipe", "ignore", "pipe"],
      });
    }
    const result = compare(nodeZero(env, repo), cases, rounds);
    const share = await serverShare(bin, server, ctx, env, cases, rounds);
    return report(result, share, rounds);
  } finally {
    stopServer(server);
    if (!process.env.BENCH_KEEP_WORK) rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The server's own time for the same cases: each post-tool-use posted to its socket from this
 * process in the thin client's format (no bash, no copy of the payload through a pipe), the cases
 * rotating in every round as in `compare`. Returns each case's samples in round order.
 */
async function serverShare(bin, server, ctx, env, cases, rounds) {
  const forwarded = { XDG_CONFIG_HOME: env.XDG_CONFIG_HOME, PATH: env.PATH, HOME: env.HOME };
  const samples = new Map(cases.map((c) => [c.name, []]));
  const cpu = new Map(cases.map((c) => [c.name, []]));
  const serverCpu = () => {
    const x = cpuMs(server.pid);
    return x.own + x.children;
  };
  for (let r = 0; r < rounds; r++) {
    for (const c of [...cases.slice(r % cases.length), ...cases.slice(0, r % cases.length)]) {
      c.before();
      const body = thinRequest(buildOf(bin), ctx.repo, forwarded, c.args, c.input);
      const c0 = serverCpu();
      const t0 = performance.now();
      const res = await postThin(server.socket, body);
      samples.get(c.name).push(performance.now() - t0);
      cpu.get(c.name).push(serverCpu() - c0);
      if (res.status !== 200 || !/^tandem-answer [02] /.test(res.text))
        throw new Error(`${c.name}: ${res.status} ${res.text.slice(0, 400)}`);
    }
  }
  return { samples, cpu };
}

function report(result, share, rounds) {
  const by = new Map(result.cases.map((c) => [c.name, c]));
  const own = (name) => median(share.samples.get(name));
  // The CPU clock ticks in 10 ms steps: a mean over the rounds, not a median, says what a call costs.
  const cpu = (name) => share.cpu.get(name).reduce((a, b) => a + b, 0) / share.cpu.get(name).length;
  const pair = (on, off) => {
    const a = by.get(on);
    const b = by.get(off);
    const perRound = median(share.samples.get(on).map((x, i) => x - share.samples.get(off)[i]));
    return `| ${on} | ${off} | ${(a.median - b.median).toFixed(1)} | ${pairedRatio(a, b).toFixed(2)}× | ${own(on).toFixed(1)} / ${own(off).toFixed(1)} | ${perRound.toFixed(1)} | ${cpu(on).toFixed(1)} / ${cpu(off).toFixed(1)} |`;
  };
  return [
    "## Post-tool cost of the owner's version and the content check (issue 37.1, 37.2)",
    "",
    `The post-tool-use of one session's file calls through the wired thin client, the server up; ${rounds}`,
    "interleaved rounds, each with a `node -e 0`; the pre-tool-use and the file's write before each are",
    'untimed. Every round the file holds new bytes, so every post-tool-use keeps a version. "Check a no-op"',
    "sends the same payload with the content under a key item 1 does not read (the same size through the",
    "same transport): the hook as it ran before item 1.",
    "",
    spreadTable(result),
    "",
    "Each case against its twin without the work in question, in the same rounds: through the thin client",
    "(difference of p50s, and the median per-round ratio), and the server's own time (the same requests",
    "posted to its socket from the bench process, as many rounds again; p50 of each and the median",
    "per-round difference), and the server's CPU per call (its own and its git's, mean over the rounds:",
    "the figure a loaded machine moves least):",
    "",
    "| case | against | + ms p50 (thin) | per round (thin) | server p50 ms, case / twin | + ms per round (server) | server CPU ms, case / twin |",
    "|---|---|---:|---:|---:|---:|---:|",
    pair("Write 1 KB, file holds the meant bytes", "Write 1 KB, check a no-op (as before item 1)"),
    pair("Write 1 MB, file holds the meant bytes", "Write 1 MB, check a no-op"),
    pair("Write 4 MB, file holds the meant bytes", "Write 4 MB, check a no-op"),
    pair("Edit of 64 KB, file holds the edited bytes", "Edit of 64 KB, check a no-op"),
    pair("Write 1 KB, another writer changed it after (save path)", "Write 1 KB, file holds the meant bytes"),
    pair("Write 1 MB, another writer changed it after (save path)", "Write 1 MB, file holds the meant bytes"),
    pair(
      "Write 1 KB + a kept 1 MB file overwritten keeping size and mtime (item 2 catches it)",
      "Write 1 KB, file holds the meant bytes",
    ),
    "",
  ].join("\n");
}
