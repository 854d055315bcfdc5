/**
 * The refusal texts that had no decider of their own: the hook-call guard's and the handler's
 * answers when a hook cannot decide. Each says what is wrong and what to do.
 */

export function hookCallMessage(agentCmd: string): string {
  return `Tandem refused this command before it ran: it calls \`tandem hook\` (or \`tandem git-hook\`), which only an agent client runs; from a shell it would speak for a session it is not. Use \`${agentCmd} status\`, \`${agentCmd} task\` or \`${agentCmd} release PATH\` for your own session.`;
}

/** `detail`: the store failure's own message (which file, held by whom, for how long). */
export function storeBusyMessage(detail: string): string {
  return `Tandem refused this tool call: its store is busy, so it cannot check the call against other sessions' work. ${detail} Retry the same tool call in a moment; if it is refused again, tell the user, and do not work around this by editing the file another way.`;
}

/** `doctor`: the doctor command as its reader runs it, in a code span (core/printed.ts). */
export function storeUnavailableMessage(detail: string, doctor: string): string {
  return `Tandem refused this tool call: it cannot check it against other sessions' work because its store is unusable. ${detail} Tell the user; retry once ${doctor} reports no problem, and do not work around this by editing the file another way.`;
}

/** Said of every refusal while the disk is full (decision 0065): the disk is the reason, and what passes. */
export function diskFullMessage(detail: string, gc: string): string {
  return `Tandem refused this tool call because the disk is full: ${detail} While it is full, only commands that free space pass: \`rm\` of your own files, and ${gc}. Tell the user; once space is free, retry this call.`;
}

export function internalErrorMessage(failure: string, doctor: string): string {
  return `Tandem could not check this edit (${failure}), and refuses it to stay safe. Run ${doctor} in the repository to see what is wrong.`;
}

export const SERVER_INTERRUPTED_MESSAGE =
  "Tandem's server stopped while checking this tool call, after recording part of it, so Tandem did not check it twice. Nothing was lost: retry the same tool call.";
