/**
 * A fast 64-bit content digest (two FNV-1a lanes) for identifying tool inputs
 * and context blocks in the ledger. Not for security: loading node:crypto costs
 * a hook ~8 ms, more than everything this digest is used for.
 */
export function digest(text: string): string {
  let a = 0x811c9dc5;
  let b = 0xcbf29ce4;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000197) ^ (a >>> 13);
  }
  return `fnv64:${(a >>> 0).toString(16).padStart(8, "0")}${(b >>> 0).toString(16).padStart(8, "0")}`;
}

/** A tool call's input as the ledger records it: its size and digest. */
export function inputDigest(input: unknown): { inputBytes: number; inputDigest: string } {
  const text = typeof input === "string" ? input : JSON.stringify(input ?? null);
  return { inputBytes: Buffer.byteLength(text), inputDigest: digest(text) };
}
