// The i3/sway IPC framing (i3's "IPC interface" document, sway-ipc(7)): every message and reply
// is the magic "i3-ipc", the payload's length and the message type (both 32-bit, native byte
// order — little-endian on every machine sway and i3 run on), then the JSON payload. Pure.

export const MAGIC = Buffer.from('i3-ipc', 'ascii');
const HEADER = MAGIC.length + 8;

/** The message types DeskPilot sends (replies carry the same type). */
export const MessageType = {
  RUN_COMMAND: 0,
  GET_WORKSPACES: 1,
  GET_OUTPUTS: 3,
  GET_TREE: 4,
  GET_VERSION: 7,
} as const;
export type MessageType = (typeof MessageType)[keyof typeof MessageType];

/** Events (only after a SUBSCRIBE, which DeskPilot never sends) have the high bit set. */
const EVENT_BIT = 0x80000000;

export function encodeMessage(type: MessageType, payload = ''): Buffer {
  const body = Buffer.from(payload, 'utf8');
  const head = Buffer.alloc(HEADER);
  MAGIC.copy(head, 0);
  head.writeUInt32LE(body.length, MAGIC.length);
  head.writeUInt32LE(type, MAGIC.length + 4);
  return Buffer.concat([head, body]);
}

export interface Frame {
  type: number;
  event: boolean;
  payload: string;
}

/**
 * Cuts whole frames off the front of `buffer`; returns them and what is left (a partial frame).
 * Throws on a stream that does not start with the magic: the socket is not an i3/sway IPC socket.
 */
export function decodeFrames(buffer: Buffer): { frames: Frame[]; rest: Buffer } {
  const frames: Frame[] = [];
  let at = 0;
  while (buffer.length - at >= HEADER) {
    if (!buffer.subarray(at, at + MAGIC.length).equals(MAGIC)) {
      throw new Error('the socket answered with something that is not i3/sway IPC (no "i3-ipc" magic)');
    }
    const length = buffer.readUInt32LE(at + MAGIC.length);
    const rawType = buffer.readUInt32LE(at + MAGIC.length + 4);
    if (buffer.length - at - HEADER < length) break;
    const payload = buffer.subarray(at + HEADER, at + HEADER + length).toString('utf8');
    frames.push({ type: (rawType & ~EVENT_BIT) >>> 0, event: (rawType & EVENT_BIT) !== 0, payload });
    at += HEADER + length;
  }
  return { frames, rest: buffer.subarray(at) };
}
