import { describe, expect, it } from 'vitest';
import { cleanSummary, SUMMARY_EXPRESSION } from './summary';

describe('cleanSummary', () => {
  it('collapses whitespace, caps the length and maps empty to null', () => {
    expect(cleanSummary({ text: '  a \n b  ', complete: true })).toEqual({ text: 'a b', complete: true });
    expect(cleanSummary({ text: 'x'.repeat(500), complete: false })?.text).toHaveLength(200);
    expect(cleanSummary({ text: '   ', complete: true })).toEqual({ text: null, complete: true });
  });

  it('rejects values a page could fake into something else', () => {
    expect(cleanSummary(null)).toBeNull();
    expect(cleanSummary('text')).toBeNull();
    expect(cleanSummary({ text: 42 })).toBeNull();
  });

  it('is a self-contained expression', () => {
    expect(() => new Function(`return ${SUMMARY_EXPRESSION}`)).not.toThrow();
  });
});
