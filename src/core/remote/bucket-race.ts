/**
 * Whether a failed KV bucket create means another clone made the bucket first, so opening it is the
 * answer (decision 0063). Clones that start together race to create it; JetStream then answers the
 * losers "already in use", "different configuration" (made with other settings), or, when the
 * creates cross inside the server, "subjects overlap with an existing stream".
 */
const MADE_ELSEWHERE = /already in use|different configuration|subjects overlap/i;

export function bucketMadeElsewhere(message: string): boolean {
  return MADE_ELSEWHERE.test(message);
}
