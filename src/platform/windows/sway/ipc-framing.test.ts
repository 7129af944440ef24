import { describe, expect, it } from 'vitest';
import { decodeFrames, encodeMessage, MessageType } from './ipc-framing';

describe('i3/sway IPC framing', () => {
  it('writes the magic, the payload length and the type little-endian, then the payload', () => {
    const m = encodeMessage(MessageType.RUN_COMMAND, '[con_id=7] focus');
    expect(m.subarray(0, 6).toString('ascii')).toBe('i3-ipc');
    expect(m.readUInt32LE(6)).toBe(16);
    expect(m.readUInt32LE(10)).toBe(0);
    expect(m.subarray(14).toString('utf8')).toBe('[con_id=7] focus');
    expect(encodeMessage(MessageType.GET_TREE).length).toBe(14);
  });

  it('cuts whole frames off a stream, keeps a partial one for later, and marks events', () => {
    const reply = encodeMessage(MessageType.GET_TREE, '{"id":1}');
    const event = encodeMessage(MessageType.GET_TREE, '{}');
    event.writeUInt32LE(0x80000003, 10);
    const stream = Buffer.concat([reply, event, reply.subarray(0, 9)]);
    const { frames, rest } = decodeFrames(stream);
    expect(frames).toEqual([
      { type: 4, event: false, payload: '{"id":1}' },
      { type: 3, event: true, payload: '{}' },
    ]);
    expect(rest.length).toBe(9);
    expect(decodeFrames(Buffer.concat([rest, reply.subarray(9)])).frames).toEqual([{ type: 4, event: false, payload: '{"id":1}' }]);
  });

  it('counts the length in bytes, not characters (a title with umlauts)', () => {
    const { frames, rest } = decodeFrames(encodeMessage(MessageType.RUN_COMMAND, '"Grüße"'));
    expect(frames[0]!.payload).toBe('"Grüße"');
    expect(rest.length).toBe(0);
  });

  it('refuses a stream that is not i3/sway IPC', () => {
    expect(() => decodeFrames(Buffer.from('HTTP/1.1 400 Bad Request\r\n\r\n'))).toThrow(/not i3\/sway IPC/);
  });
});
