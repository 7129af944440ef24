// How long a command row waits for its device. On its own so that reading the configuration
// (every CLI call) does not build the sync protocol's schemas.

/** Every command row gets the same urgency: no per-row expiry field. */
export const COMMAND_TTL_MS = 30_000;
