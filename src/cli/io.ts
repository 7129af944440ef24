// The CLI's only contact with the terminal, so commands can be run in-process by tests.
export interface Io {
  out(text: string): void;
  err(text: string): void;
  readStdin(): Promise<string>;
  /** True when a person can answer a question (stdin and stderr are terminals). */
  interactive(): boolean;
  /** Asks on stderr (stdout stays machine-readable) and returns the typed line. */
  ask(question: string): Promise<string>;
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
        return await rl.question(question);
      } finally {
        rl.close();
      }
    },
  };
}
