// The browser board (issue 18): first paint and new-event latency in Debian's Chromium, with a
// store of 50 sessions, 5,000 claims and 100,000 events. The baseline is a blank page from the
// same server through the same guard, loaded in the same browser in the same rounds.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { chromium } from "playwright-core";
import { median, percentile } from "./lib.mjs";

const SIZES = { sessions: 50, claims: 5000, events: 100_000 };
const KINDS = [
  "tool.requested",
  "tool.completed",
  "files.touched",
  "claim.acquired",
  "status.checked",
  "task.set",
];

/** The real schema (a hook creates the store), then the bulk in one transaction. */
export function seed(bin, repo) {
  const payload = { session_id: "seed", cwd: repo, hook_event_name: "PreToolUse", tool_name: "Write" };
  const input = JSON.stringify({
    ...payload,
    tool_input: { file_path: join(repo, "seed.txt"), content: "x" },
  });
  spawnSync(process.execPath, [bin, "hook", "claude-code", "pre-tool-use"], { cwd: repo, input });
  const db = new Database(join(repo, ".git", "tandem", "state.db"));
  const now = Date.now();
  db.transaction(() => {
    const ses = db.prepare(
      `INSERT INTO sessions (id, client, native_id, name, kind, activity, started_seq, last_seen, last_seq)
       VALUES (?, 'claude-code', ?, ?, 'session', 'working', 1, ?, 1)`,
    );
    for (let i = 0; i < SIZES.sessions; i++)
      ses.run(`ses_b${i}`, `native-${i}`, `agent-bench-${i}`, now - i * 1000);
    const ev = db.prepare("INSERT INTO events (ts, session_id, kind, data) VALUES (?, ?, ?, ?)");
    for (let i = 0; i < SIZES.events; i++) {
      const kind = KINDS[i % KINDS.length];
      ev.run(
        now - (SIZES.events - i) * 50,
        `ses_b${i % SIZES.sessions}`,
        kind,
        JSON.stringify({ path: `src/m${i % 97}/f${i}.ts`, tool: "Write" }),
      );
    }
    const claim = db.prepare(
      "INSERT INTO claims (worktree, path, session_id, disposition, root, acquired_seq) VALUES (?, ?, ?, 'write', ?, 1)",
    );
    for (let i = 0; i < SIZES.claims; i++)
      claim.run(repo, `src/mod${i % 40}/part${i % 7}/file${i}.ts`, `ses_b${i % SIZES.sessions}`, repo);
  })();
  return db;
}

function startBoard(bin, repo) {
  const child = spawn(process.execPath, [bin, "ui"], { cwd: repo, stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.on("exit", (code) => reject(new Error(`tandem ui exited ${code}`)));
    child.stdout.on("data", (d) => {
      out += d;
      const m = /http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+/.exec(out);
      if (m) resolve({ url: m[0], child });
    });
  });
}

/** ms from navigation start to the page's first view drawn with the store's data. */
async function firstPaint(context, url) {
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForFunction(() => performance.getEntriesByName("tandem:first-view").length > 0);
  const ms = await page.evaluate(() => performance.getEntriesByName("tandem:first-view")[0].startTime);
  await page.close();
  return ms;
}

/** ms from navigation start to the blank page's load event. */
async function blank(context, url) {
  const page = await context.newPage();
  await page.goto(url, { waitUntil: "load" });
  const ms = await page.evaluate(() => performance.getEntriesByType("navigation")[0].loadEventEnd);
  await page.close();
  return ms;
}

/**
 * ms from an event's commit (as a hook commits) to its row in the open page's event list: the page
 * notes the wall clock when the row enters the DOM (a MutationObserver, not Playwright's polling).
 */
async function latency(page, db, n) {
  const seq = Number(db.prepare("SELECT coalesce(max(seq), 0) + 1 AS s FROM events").get().s);
  await page.evaluate((want) => {
    window.benchSeen = new Promise((resolve) => {
      const seen = () => document.querySelector(`.ev[data-seq="${want}"]`);
      const obs = new MutationObserver(() => {
        if (!seen()) return;
        obs.disconnect();
        resolve(Date.now());
      });
      obs.observe(document.body, { childList: true, subtree: true });
    });
  }, seq);
  const start = Date.now();
  db.prepare(
    "INSERT INTO events (seq, ts, session_id, kind, data) VALUES (?, ?, 'ses_b0', 'bench.ping', ?)",
  ).run(seq, Date.now(), JSON.stringify({ n }));
  return (await page.evaluate(() => window.benchSeen)) - start;
}

const row = (name, xs, base, target) =>
  `| ${name} | ${median(xs).toFixed(0)} | ${percentile(xs, 0.95).toFixed(0)} | ${(median(xs) / base).toFixed(2)}× | ${target} |`;

export async function uiBench(bin, rounds) {
  const work = mkdtempSync(join(tmpdir(), "tandem-bench-ui-"));
  const repo = join(work, "repo");
  spawnSync("git", ["init", "-q", "-b", "main", repo]);
  const db = seed(bin, repo);
  const board = await startBoard(bin, repo);
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const origin = board.url.replace(/\/\?token=.*/, "");
    await blank(context, `${board.url.replace("/?", "/blank?")}`); // sets the cookie
    const paint = [];
    const base = [];
    for (let r = 0; r < rounds; r++) {
      base.push(await blank(context, `${origin}/blank`));
      paint.push(await firstPaint(context, `${origin}/#events`));
    }
    const page = await context.newPage();
    await page.goto(`${origin}/#events`);
    await page.locator("body[data-ready='1']").waitFor();
    const lat = [];
    for (let r = 0; r < rounds; r++) lat.push(await latency(page, db, r));
    const b = median(base);
    return [
      "## Browser board (tandem ui)",
      "",
      `Debian's Chromium (headless, 1280×800) against a store of ${SIZES.sessions} sessions, ${SIZES.claims.toLocaleString("en")} claims`,
      `and ${SIZES.events.toLocaleString("en")} events; ${rounds} rounds. First paint: navigation start to the first view drawn`,
      "with the store's data (the page's `tandem:first-view` mark, Events view). Latency: an event committed to the",
      "store to its row shown in the open page (the server polls `PRAGMA data_version` every 100 ms).",
      "",
      "| case | median ms | p95 ms | ratio to baseline | target |",
      "|---|---:|---:|---:|---:|",
      `| blank page from the same server (baseline) | ${b.toFixed(0)} | ${percentile(base, 0.95).toFixed(0)} | 1.00× | |`,
      row("first paint", paint, b, "< 1000 ms"),
      row("new event → visible", lat, b, "< 500 ms"),
      "",
    ].join("\n");
  } finally {
    await browser.close();
    board.child.kill("SIGTERM");
    db.close();
    rmSync(work, { recursive: true, force: true });
  }
}
