import { randomBytes, timingSafeEqual } from "node:crypto";
import { renameSync, rmSync, writeFileSync } from "node:fs";
import { tcpFile } from "../resident/paths.js";

/**
 * The loopback door (docs/server.md §2, decision 0013): bash reaches a TCP port with a built-in
 * where the unix socket needs `curl`. Any local user can connect to a port, so both sides prove
 * themselves with secrets only this user can read: the client sends `token`, and trusts an answer
 * only when it carries `proof` — a process of another user that took the port after our server
 * died can neither be asked by us nor answer us.
 */
export interface LoopbackSecrets {
  token: string;
  proof: string;
}

export const TOKEN_HEADER = "x-tandem-token";
export const PROOF_HEADER = "x-tandem-proof";

/** Fresh for each server: a token a dead server leaked opens nothing. */
export function newSecrets(): LoopbackSecrets {
  return { token: randomBytes(24).toString("hex"), proof: randomBytes(24).toString("hex") };
}

export function tokenMatches(sent: string | string[] | undefined, token: string): boolean {
  if (typeof sent !== "string") return false;
  const a = Buffer.from(sent);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** `<port> <token> <proof>`, one line, 0600, written atomically after the port listens. */
export function publishLoopback(stateDir: string, port: number, secrets: LoopbackSecrets): void {
  const file = tcpFile(stateDir);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${port} ${secrets.token} ${secrets.proof}\n`, { mode: 0o600 });
  renameSync(tmp, file);
}

export function withdrawLoopback(stateDir: string): void {
  rmSync(tcpFile(stateDir), { force: true });
}
