import { type Printer, spanned } from "../../core/printed.js";
import type { Lease } from "../../core/remote/leases.js";
import { formatAge } from "../../core/sessions/liveness.js";
import type { LeaseFailure } from "../../remote/leases.js";

/** Who holds a lease, in one line: machine, session, task, until when. */
export function holderLine(by: Lease, now: number): string {
  const who = [`${by.checkoutName}`];
  if (by.session) who.push(`session ${by.session}`);
  if (by.task) who.push(`task "${by.task}"`);
  const until = new Date(by.expires).toISOString().replace(/\.\d+Z$/, "Z");
  return `${who.join(", ")}, until ${until} (in ${formatAge(by.expires - now)})`;
}

/** `p` is the reader's: they relay the release command to the holder, who runs it the same way. */
export function lostLine(path: string, by: Lease, now: number, p: Printer): string {
  return (
    `lost ${path}: reserved by ${holderLine(by, now)}. Work on something else, ask them to ` +
    `run ${spanned(p, "reserve", "--release", { path })} for it, or wait for the lease to expire.\n`
  );
}

/** What went wrong with the remote, and what to do about it. */
export function failureMessage(f: LeaseFailure): string {
  switch (f.kind) {
    case "unreachable":
      return `cannot reach remote ${f.remote} (${f.reason}); nothing was reserved. Check the network and \`git fetch ${f.remote}\`, then retry.`;
    case "refused":
      return `remote ${f.remote} refused its lease refs, refs/tandem/lease/* (${f.reason}); it does not accept custom refs, so reservations cannot be shared through it. Allow refs/tandem/* on the server, or pass --remote with one that does.`;
    case "unreadable":
      return `${f.reason} on ${f.remote}; nothing was changed. Update Tandem, or inspect it with \`git ls-remote ${f.remote} 'refs/tandem/lease*'\`.`;
    case "contended":
      return `the lease refs on ${f.remote} kept changing under this reservation for 2 minutes (${f.tries} tries); nothing was reserved. Retry; if it persists, look for a process rewriting refs/tandem/lease/* (\`git ls-remote ${f.remote} 'refs/tandem/lease/*'\`).`;
  }
}
