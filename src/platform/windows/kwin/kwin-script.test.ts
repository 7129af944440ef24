import { describe, expect, it } from 'vitest';
import { kwinScript, type KwinRequest } from './kwin-script';

const address = { service: 'org.deskpilot.KWinBridge.p1_ab', path: '/org/deskpilot/KWinBridge', iface: 'org.deskpilot.KWinBridge' };
const ID = '{f18bd475-614d-43e2-817f-edc248fd81cb}';

describe('KWin script building', () => {
  it('embeds the request as a JSON literal, nothing else', () => {
    const src = kwinScript({ op: 'move', id: ID, x: 1920, y: 0, width: 960, height: 1080 }, address, 'tok');
    expect(src.split('\n').slice(0, 3)).toEqual([
      `var BRIDGE = ${JSON.stringify(address)};`,
      'var TOKEN = "tok";',
      `var REQ = {"op":"move","id":"${ID}","x":1920,"y":0,"width":960,"height":1080};`,
    ]);
  });

  it.each([
    ['an id that is not a KWin UUID', { op: 'close', id: 'x"); workspace.activeClient.closeWindow(); ("' }],
    ['a fractional coordinate', { op: 'move', id: ID, x: 0.5, y: 0, width: 10, height: 10 }],
    ['an empty size', { op: 'move', id: ID, x: 0, y: 0, width: 0, height: 10 }],
    ['an unknown operation', { op: 'eval', id: ID }],
    ['an extra field', { op: 'close', id: ID, code: 'x' }],
  ])('refuses %s before any script exists', (_label, request) => {
    expect(() => kwinScript(request as KwinRequest, address, 'tok')).toThrow();
  });

  it('keeps U+2028 and U+2029 escaped so the literal stays one line of JavaScript', () => {
    const src = kwinScript({ op: 'snapshot' }, { ...address, iface: 'a\u2028b\u2029c' }, 'tok');
    expect(src).not.toMatch(/[\u2028\u2029]/);
    expect(src).toContain('a\\u2028b\\u2029c');
  });
});
