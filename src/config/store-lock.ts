/**
 * How long anything of Tandem waits for another process's write lock on the store before it gives
 * up: the one default behind `agents.storeLockSeconds` (decision 0008, docs/server.md §7). A gated
 * hook that cannot get the lock within it refuses; nothing waits for the lock twice.
 */
export const STORE_LOCK_SECONDS = 5;
