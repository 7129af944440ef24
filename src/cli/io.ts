import type { Desk } from '../app/desk';

// The CLI's only contact with the terminal, so commands can be run in-process by tests.
export interface Io {
  out(text: string): void;
  err(text: string): void;
  readStdin(): Promise<string>;
  /** True when a person can answer a question (stdin and stderr are terminals). */
  interactive(): boolean;
  /** Asks on stderr (stdout stays machine-readable) and returns the typed line ('' when input ends first). */
  ask(question: string): Promise<string>;
  /** Where relative paths in the arguments point (default: this process's working directory). */
  cwd?: string;
  /** The terminal's width for help text, when that stream is a terminal of a known size. */
  helpWidth?(stream: 'out' | 'err'): number | undefined;
  /**
   * Set inside the service, which runs the CLI for a thin client: the service's own desk,
   * borrowed for this call (openDesk returns it instead of a socket round trip to itself).
   */
  desk?: Desk;
}

export function processIo(): Io {
  return {
    out: (t) => void process.stdout.write(t),
    err: (t) => void process.stderr.write(t),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    interactive: () => Boolean(process.stdin.isTTY && process.stderr.isTTY),
    ask: async (question) => {
      const { createInterface } = await import('node:readline/promises');
      const rl = createInterface({ input: process.stdin, output: process.stderr });
      try {
        // Ctrl-D or Ctrl-C at the question (readline aborts it), or input that ends, is no answer,
        // as Enter is: nothing runs and the exit code says the user declined — not a failure.
        return await new Promise<string>((resolve, reject) => {
          rl.once('close', () => resolve(''));
          rl.question(question).then(resolve, (e: unknown) => (e instanceof Error && e.name === 'AbortError' ? resolve('') : reject(e)));
        });
      } finally {
        rl.close();
      }
    },
    helpWidth: (stream) => {
      const s = stream === 'out' ? process.stdout : process.stderr;
      return s.isTTY && s.columns > 0 ? s.columns : undefined;
    },
  };
}
