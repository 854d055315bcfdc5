const FROM_LINE = /^From ([0-9a-f]{40}|[0-9a-f]{64}) Mon Sep 17 00:00:00 2001$/gm;

/**
 * The child commit ids of a format-patch mbox, in order: each message starts
 * with git's fixed-date `From <id>` line. Empty commits have a message too.
 */
export function mboxCommits(text: string): string[] {
  return [...text.matchAll(FROM_LINE)].map((m) => m[1]!);
}

/** The subject of the message for `commit`, without git's `[PATCH …]` prefix. */
export function mboxSubject(text: string, commit: string): string | null {
  const at = text.indexOf(`From ${commit} Mon Sep 17 00:00:00 2001\n`);
  if (at === -1) return null;
  const m = /^Subject: (?:\[PATCH[^\]]*\] )?(.*)$/m.exec(text.slice(at, at + 64 * 1024));
  return m ? m[1]! : null;
}
