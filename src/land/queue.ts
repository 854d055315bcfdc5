import { randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { LandResult } from "../core/land/result.js";
import { tryLock } from "./lock.js";

/**
 * The queue of landings of one checkout (docs/decisions/0032-land-queue.md). A lander that finds
 * the lock taken registers `<state>/land-queue/<id>.wait` and waits (the id is its pid and a random
 * part: a pid the system reuses for a later lander must not receive an answer meant for an earlier one). Whoever takes the lock next
 * adopts every registered waiter before it reads the branch (their commits are on it already), lands
 * once for all of them, and writes each an answer, `<id>.answer`. A waiter returns the answer it
 * finds, or takes the lock and lands itself when its leader died without answering.
 */

const dirOf = (stateDir: string) => join(stateDir, "land-queue");
const waitFile = (stateDir: string, id: string) => join(dirOf(stateDir), `${id}.wait`);
const answerFile = (stateDir: string, id: string) => join(dirOf(stateDir), `${id}.answer`);
/** This lander's name in the queue. */
const SELF = `${process.pid}.${randomBytes(6).toString("hex")}`;

export type Turn =
  | { kind: "lock"; release: () => void }
  | { kind: "answered"; result: LandResult }
  | { kind: "timeout"; heldBy: number };

/** Waits (polling) for the checkout's land lock or for a leader's answer, up to `waitMs`. */
export async function awaitTurn(stateDir: string, lockFile: string, waitMs: number): Promise<Turn> {
  const first = tryLock(lockFile);
  if (typeof first === "function") return { kind: "lock", release: first };
  mkdirSync(dirOf(stateDir), { recursive: true });
  rmSync(answerFile(stateDir, SELF), { force: true });
  writeFileSync(waitFile(stateDir, SELF), String(process.pid));
  const until = Date.now() + waitMs;
  try {
    for (;;) {
      const answer = readAnswer(stateDir);
      if (answer) return { kind: "answered", result: answer };
      const lock = tryLock(lockFile);
      if (typeof lock === "function") {
        // A leader may have answered between our look and the lock.
        const late = readAnswer(stateDir);
        if (!late) return { kind: "lock", release: lock };
        lock();
        return { kind: "answered", result: late };
      }
      if (Date.now() >= until) return { kind: "timeout", heldBy: lock.heldBy };
      await new Promise((r) => setTimeout(r, 50 + Math.floor(Math.random() * 50)));
    }
  } finally {
    rmSync(waitFile(stateDir, SELF), { force: true });
  }
}

function readAnswer(stateDir: string): LandResult | null {
  const file = answerFile(stateDir, SELF);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return null;
  }
  rmSync(file, { force: true });
  return JSON.parse(text) as LandResult;
}

/** The waiters registered now: called by the lock holder before it reads the branch it lands. */
export function adoptWaiters(stateDir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dirOf(stateDir));
  } catch {
    return [];
  }
  return names
    .map((n) => /^(\d+\.[0-9a-f]+)\.wait$/.exec(n)?.[1])
    .filter((id): id is string => id !== undefined && id !== SELF);
}

/** Gives each adopted waiter still waiting the batch's result (written whole, then renamed in). */
export function answerWaiters(stateDir: string, ids: readonly string[], result: LandResult): void {
  for (const id of ids) {
    const tmp = `${answerFile(stateDir, id)}.${SELF}`;
    try {
      readFileSync(waitFile(stateDir, id));
      writeFileSync(tmp, JSON.stringify(result));
      renameSync(tmp, answerFile(stateDir, id));
    } catch {
      // It stopped waiting (timed out or died): nobody to tell.
      rmSync(tmp, { force: true });
    }
  }
}
