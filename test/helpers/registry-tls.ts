/**
 * Node reads NODE_EXTRA_CA_CERTS at every start: on a machine whose registry needs it (this one),
 * `node -e 0` takes ~65 ms instead of ~25 ms, and the suite starts over 4,000 Node processes.
 * Nothing in the suite speaks TLS except npm fetching from the registry, so the global setup
 * takes the variable out of every test's environment and keeps it here; each npm call gets it back
 * (docs/decisions/0080).
 */
const KEPT = "TANDEM_TEST_NODE_EXTRA_CA_CERTS";

/** In the global setup, before any worker starts: out of the environment, kept for npm. */
export function setAsideRegistryTls(): void {
  const ca = process.env.NODE_EXTRA_CA_CERTS;
  if (ca === undefined) return;
  process.env[KEPT] = ca;
  delete process.env.NODE_EXTRA_CA_CERTS;
}

/** `env` for an npm call: the machine's extra CA certificates back, if it had any. */
export function withRegistryTls<T extends NodeJS.ProcessEnv>(env: T): T {
  const ca = process.env[KEPT];
  return ca === undefined ? env : { ...env, NODE_EXTRA_CA_CERTS: ca };
}
