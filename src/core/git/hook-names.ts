/** The git hooks Tandem installs: init writes them, the wiring guard protects them. */
export const GIT_HOOK_NAMES = ["pre-commit", "prepare-commit-msg", "post-commit", "post-checkout"] as const;
export type GitHookName = (typeof GIT_HOOK_NAMES)[number];
