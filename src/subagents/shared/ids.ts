/** node:crypto on first use: loading it costs every command a few ms. */
const randomBytes = (n: number) => process.getBuiltinModule("node:crypto").randomBytes(n);

/** A sub-agent id: short enough to type, random so two runs at once never collide. */
export function newSubId(): string {
  return `sub_${randomBytes(4).toString("hex")}`;
}

export function newCaptureId(): string {
  return `cap_${randomBytes(6).toString("hex")}`;
}

/** The branch a child works on (docs/product.md §7.1). */
export function subBranch(id: string): string {
  return `tandem/sub/${id}`;
}

/** Abbreviated commit id for messages. */
export function short(sha: string | null | undefined): string {
  return sha ? sha.slice(0, 12) : "-";
}
