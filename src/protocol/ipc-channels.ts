// Channel names and the renderer's method names, free of runtime imports: the sandboxed
// preload bundles this file and may require nothing but electron.

export const IPC_CHANNELS = ['context:get', 'exec:run'] as const;
export type IpcChannel = (typeof IPC_CHANNELS)[number];

/** 'context:get' → 'contextGet' */
export type CamelChannel<S extends string> = S extends `${infer A}:${infer B}` ? `${A}${Capitalize<B>}` : S;

export const methodName = <C extends IpcChannel>(channel: C): CamelChannel<C> =>
  channel.replace(/:(\w)/, (_, c: string) => c.toUpperCase()) as CamelChannel<C>;
