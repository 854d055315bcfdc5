import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { allPids, commandLine } from "../../src/sessions/proc.js";
import { writeClineHome } from "../e2e/harness/run-cline.js";
import { until } from "./driver.js";

/**
 * A fresh Cline HOME a person has used before: the fake provider chosen, and Cline's start-up
 * notices ("Try ClinePass", "Get Cline Desktop") already seen. Unseen, a notice is drawn over the
 * input and takes the first key typed (docs/clients.md §14.5).
 */
export function seedClineHome(home: string, baseUrl: string): void {
  writeClineHome(home, baseUrl);
  const dir = join(home, ".cline", "data", "settings");
  mkdirSync(dir, { recursive: true });
  const shown = { "cline-cli-cline-pass-intro": true, "cline-cli-desktop-launch": true };
  writeFileSync(join(dir, "cli-notices.json"), `${JSON.stringify({ shown }, null, 2)}\n`);
}

/** A port no one listens on now: the test's own hub daemon port, so it never meets a person's. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Pids of the hub daemons (`cline --cline-hub-daemon … --port <port>`) listening on `port`. */
function hubDaemons(port: number): number[] {
  return allPids().filter((pid) => {
    const argv = commandLine(pid) ?? [];
    const at = argv.indexOf("--port");
    return argv.includes("--cline-hub-daemon") && at >= 0 && argv[at + 1] === String(port);
  });
}

/** Stops the hub daemon the TUI started on `port`: it outlives the UI by design (§14.4). */
export async function stopClineHub(port: number): Promise<void> {
  const pids = hubDaemons(port);
  for (const pid of pids) process.kill(pid, "SIGKILL");
  await until("the Cline hub daemon exited", () => hubDaemons(port).length === 0, 10_000);
}
