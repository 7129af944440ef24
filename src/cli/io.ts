// The CLI's only contact with the terminal, so commands can be run in-process by tests.
export interface Io {
  out(text: string): void;
  err(text: string): void;
  readStdin(): Promise<string>;
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
  };
}
