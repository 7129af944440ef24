// Waits for Ctrl-C or SIGTERM, for commands that run until stopped (`deskpilot mcp`).
//
// The handlers stay installed (process.on, not once) until the command has cleaned up:
// proper-lockfile's signal-exit re-raises a signal when it sees no other listener left, which
// would kill the process in the middle of its orderly shutdown.

export function untilSignalled(): { stopped: Promise<NodeJS.Signals>; dispose(): void } {
  let resolve!: (sig: NodeJS.Signals) => void;
  const stopped = new Promise<NodeJS.Signals>((r) => (resolve = r));
  const onSignal = (sig: NodeJS.Signals) => resolve(sig);
  const signals = ['SIGINT', 'SIGTERM'] as const;
  for (const sig of signals) process.on(sig, onSignal);
  return { stopped, dispose: () => signals.forEach((sig) => process.off(sig, onSignal)) };
}
