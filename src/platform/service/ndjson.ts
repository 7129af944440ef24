import type { Socket } from 'node:net';

// Newline-delimited JSON over a stream socket: one value per line. A line over the limit
// or one that is not JSON ends the connection (the peer is not speaking the protocol).

/** How long a peer that was cut off may take to read the reason before the socket is destroyed. */
const CUT_OFF_GRACE_MS = 2_000;

/**
 * Reads one JSON value per line. Only the newest chunk is searched for a newline (a long line is
 * never rescanned), and once a line passes `maxLine` or is not JSON, reading stops for good: the
 * rest of what the peer sends is dropped, never buffered, while `onBad` answers and ends.
 */
export function readLines(socket: Socket, maxLine: number, onValue: (value: unknown) => void, onBad: (why: string) => void): void {
  let pending: string[] = [];
  let pendingLength = 0;
  let stopped = false;
  socket.setEncoding('utf8');
  const stop = (why: string) => {
    stopped = true;
    pending = [];
    socket.off('data', onData);
    // Keep draining the socket into nothing, so a peer that goes on sending neither fills our
    // memory nor blocks the answer; the owner's onBad ends (or destroys) the connection.
    socket.on('data', () => undefined);
    onBad(why);
  };
  const onData = (chunk: string) => {
    let start = 0;
    let nl: number;
    while (!stopped && (nl = chunk.indexOf('\n', start)) >= 0) {
      const line = pending.join('') + chunk.slice(start, nl);
      pending = [];
      pendingLength = 0;
      start = nl + 1;
      if (line.length > maxLine) return stop(`a line longer than ${maxLine} bytes`);
      if (!line.trim()) continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        return stop('a line that is not JSON');
      }
      onValue(value);
    }
    if (stopped || start >= chunk.length) return;
    const rest = start === 0 ? chunk : chunk.slice(start);
    pending.push(rest);
    pendingLength += rest.length;
    if (pendingLength > maxLine) stop(`a line longer than ${maxLine} bytes`);
  };
  socket.on('data', onData);
}

export function writeLine(socket: Socket, value: unknown): void {
  if (!socket.destroyed && socket.writable) socket.write(JSON.stringify(value) + '\n');
}

/** Sends a last line, ends our side, and destroys the socket once it is written (or after a grace). */
export function endWithLine(socket: Socket, value: unknown): void {
  const timer = setTimeout(() => socket.destroy(), CUT_OFF_GRACE_MS);
  timer.unref();
  const finish = () => {
    clearTimeout(timer);
    socket.destroy();
  };
  if (socket.destroyed || !socket.writable) return finish();
  socket.end(JSON.stringify(value) + '\n', finish);
}
