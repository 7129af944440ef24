import { describe, expect, it } from 'vitest';
import { luhnValid, maskFieldValue, maskPii, redactBody, redactUrl, removeSecrets } from './pii';

describe('maskPii', () => {
  it('masks emails, Luhn-valid card numbers and phone numbers', () => {
    expect(maskPii('write to jane.doe+x@mail.example.co.uk today')).toBe('write to [email] today');
    expect(maskPii('card 4111 1111 1111 1111 ok')).toBe('card [card number] ok');
    expect(maskPii('card 4242-4242-4242-4242')).toBe('card [card number]');
    expect(maskPii('4111111111111111')).toBe('[card number]');
    expect(maskPii('call +1 (415) 555-0132 now')).toBe('call [phone] now');
    expect(maskPii('or 415-555-0132')).toBe('or [phone]');
    expect(maskPii('+442079460958')).toBe('[phone]');
  });

  it('leaves ids, prices, dates and non-Luhn digit runs alone', () => {
    expect(maskPii('Order 12345')).toBe('Order 12345');
    expect(maskPii('ref 1234567890123')).toBe('ref 1234567890123');
    expect(maskPii('$1,299.00')).toBe('$1,299.00');
    expect(maskPii('on 2024-05-01')).toBe('on 2024-05-01');
    expect(maskPii('4111 1111 1111 1112')).toBe('4111 1111 1111 1112');
  });

  it('checks Luhn', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(luhnValid('')).toBe(false);
  });

  it('masks by field kind too', () => {
    expect(maskFieldValue('4242 4242', { autocomplete: 'cc-number' })).toBe('[card data]');
    expect(maskFieldValue('12/29', { autocomplete: 'cc-exp' })).toBe('[card expiry]');
    expect(maskFieldValue('5550132', { type: 'tel' })).toBe('[phone]');
    expect(maskFieldValue('jane', { type: 'email' })).toBe('[email]');
    expect(maskFieldValue('hello', { type: 'text' })).toBe('hello');
    expect(maskFieldValue('', { type: 'email' })).toBe('');
  });
});

describe('redaction', () => {
  it('redacts secret fields of JSON bodies by name, at any depth', () => {
    expect(redactBody('{"email":"a@b.c","password":"hunter2","nested":{"api_key":"k","n":1},"list":[{"cvc":"123"}]}')).toBe(
      '{"email":"a@b.c","password":"[redacted]","nested":{"api_key":"[redacted]","n":1},"list":[{"cvc":"[redacted]"}]}',
    );
  });

  it('redacts form-encoded bodies and loose text', () => {
    expect(redactBody('user=jane&pwd=hunter2&remember=1')).toBe('user=jane&pwd=[redacted]&remember=1');
    expect(redactBody('garbage "token": "abc" and secret=xyz;')).toBe('garbage "token": "[redacted]" and secret=[redacted];');
    expect(redactBody('{"author":"Ada","spin":2}')).toBe('{"author":"Ada","spin":2}');
  });

  it('removes values typed into password fields wherever they are, encoded or not', () => {
    const secrets = ['p4ss word!'];
    expect(redactBody('{"p":"p4ss word!"}', secrets)).toBe('{"p":"[redacted]"}');
    expect(redactBody('x=p4ss%20word!', secrets)).toBe('x=[redacted]');
    expect(removeSecrets('say p4ss+word! twice', secrets)).toBe('say [redacted] twice');
    expect(removeSecrets('ab', ['ab'])).toBe('ab');
  });

  it('removes them re-encoded too: hex in a request URL, base64 in a body (the forms of secret-redaction.ts)', () => {
    const secrets = ['p4ss word!'];
    const hex = Buffer.from('p4ss word!').toString('hex');
    expect(redactUrl(`/api/collect?h=${hex}&n=1`, secrets)).toBe('/api/collect?h=[redacted]&n=1');
    expect(redactBody(`blob=${Buffer.from('user:p4ss word!').toString('base64url')}`, secrets)).toMatch(/^blob=dXNlcj[\w-]*\[redacted\]/);
  });

  it('redacts secret query parameters of URLs', () => {
    expect(redactUrl('/api/x?q=rain&token=abc&access_token=zz#frag')).toBe('/api/x?q=rain&token=[redacted]&access_token=[redacted]#frag');
    expect(redactUrl('/api/x')).toBe('/api/x');
  });
});
