import { describe, expect, it } from 'vitest';
import { raiseOrder } from './batch-front';

// The order placed windows come to the front: as placed, but none ends inside a later one's frame.

const w = (id: string, frame: number[]) => ({ id, frame });
const ids = (list: Array<{ id: string }>) => list.map((x) => x.id);

describe('raiseOrder', () => {
  it('keeps the order placed when no frame holds another', () => {
    expect(ids(raiseOrder([w('a', [0, 0, 100, 100]), w('b', [100, 0, 200, 100]), w('c', [50, 50, 150, 150])]))).toEqual(['a', 'b', 'c']);
  });

  it('raises a window after the later one whose frame holds it (a swap of a small and a large window)', () => {
    expect(ids(raiseOrder([w('small', [300, 300, 900, 700]), w('large', [100, 100, 1500, 900])]))).toEqual(['large', 'small']);
  });

  it('nested three deep ends innermost on top; equal frames keep the order placed', () => {
    expect(ids(raiseOrder([w('in', [2, 2, 8, 8]), w('mid', [1, 1, 9, 9]), w('out', [0, 0, 10, 10])]))).toEqual(['out', 'mid', 'in']);
    expect(ids(raiseOrder([w('a', [0, 0, 10, 10]), w('b', [0, 0, 10, 10])]))).toEqual(['a', 'b']);
  });
});
