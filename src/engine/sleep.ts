// Waiting a fixed time, for every layer: the engine may not import node:timers, and the
// platform's pollers and retries use the same helper. The timer keeps the process alive, so
// an awaited sleep can never let Node exit mid-wait (e.g. while a detached Chrome starts).

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
