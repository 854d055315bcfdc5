/** A captured commit series (git format-patch mbox) as one diff per commit, for the diff renderer. */

export interface MboxCommit {
  subject: string;
  diff: string;
}

const FROM = /^From [0-9a-f]{40} /;

/**
 * Splits at each message's `From <sha>` line; the subject is the `Subject:` header without git's
 * `[PATCH n/m]` prefix; the diff runs from the first `diff --git` to the `-- ` signature line.
 */
export function splitMbox(text: string): MboxCommit[] {
  const out: MboxCommit[] = [];
  let cur: { subject: string; lines: string[]; inDiff: boolean; done: boolean } | null = null;
  const flush = () => {
    if (cur) out.push({ subject: cur.subject, diff: cur.lines.length ? `${cur.lines.join("\n")}\n` : "" });
  };
  for (const line of text.split("\n")) {
    if (FROM.test(line)) {
      flush();
      cur = { subject: "", lines: [], inDiff: false, done: false };
      continue;
    }
    if (!cur || cur.done) continue;
    if (!cur.inDiff && cur.subject === "" && line.startsWith("Subject: "))
      cur.subject = line.slice(9).replace(/^\[PATCH[^\]]*\]\s*/, "");
    else if (line.startsWith("diff --git ")) cur.inDiff = true;
    if (cur.inDiff && line === "-- ") cur.done = true;
    else if (cur.inDiff) cur.lines.push(line);
  }
  flush();
  return out;
}
