import type { Socket } from 'node:net';

// Newline-delimited JSON over a stream socket: one value per line. A line over the limit
// or one that is not JSON ends the connection (the peer is not speaking the protocol).

export function readLines(socket: Socket, maxLine: number, onValue: (value: unknown) => void, onBad: (why: string) => void): void {
  let buffered = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      if (!line.trim()) continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        onBad('a line that is not JSON');
        return;
      }
      onValue(value);
    }
    if (buffered.length > maxLine) onBad(`a line longer than ${maxLine} bytes`);
  });
}

export function writeLine(socket: Socket, value: unknown): void {
  if (!socket.destroyed && socket.writable) socket.write(JSON.stringify(value) + '\n');
}
