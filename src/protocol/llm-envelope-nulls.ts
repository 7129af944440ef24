// The way back from the LLM's strict-mode envelope (llm-schema.ts) to the protocol's. On its own,
// without zod, so reading a plan's text does not build the strict-mode schemas.

/** Drops the nulls strict mode forced on optional fields, so the protocol schema can validate. */
export function fromLlmEnvelope(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || !Array.isArray((value as { commands?: unknown }).commands)) {
    return value;
  }
  const { device, ...env } = value as { commands: unknown[]; device?: unknown };
  return {
    ...env,
    ...(device !== null && device !== undefined ? { device } : {}),
    commands: env.commands.map((c) =>
      typeof c === 'object' && c !== null ? Object.fromEntries(Object.entries(c).filter(([, v]) => v !== null)) : c,
    ),
  };
}
