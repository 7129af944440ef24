import { describe, expect, it } from 'vitest';
import { decidePermission } from './permissions';

describe('web permissions for our pages', () => {
  it('grants the microphone to our pages, asking macOS first', () => {
    expect(decidePermission('media', true, ['audio'], 'linux')).toBe('allow');
    expect(decidePermission('media', true, ['audio'], 'win32')).toBe('allow');
    expect(decidePermission('media', true, ['audio'], 'darwin')).toBe('ask-os');
  });

  it('refuses the camera, unknown media, other permissions and other pages', () => {
    expect(decidePermission('media', true, ['audio', 'video'], 'linux')).toBe('deny');
    expect(decidePermission('media', true, [], 'linux')).toBe('deny');
    expect(decidePermission('geolocation', true, [], 'linux')).toBe('deny');
    expect(decidePermission('media', false, ['audio'], 'linux')).toBe('deny');
    expect(decidePermission('clipboard-sanitized-write', true, [], 'darwin')).toBe('allow');
  });
});
