import { describe, expect, it } from 'vitest';
import { readPlistStrings } from './info-plist';

describe('readPlistStrings', () => {
  it('reads the top-level string values and skips nested containers', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
  <key>CFBundleDocumentTypes</key>
  <array><dict><key>CFBundleName</key><string>Nested</string></dict></array>
  <key>LSRequiresNativeExecution</key><true/>
  <key>CFBundleVersion</key><integer>5</integer>
  <!-- <key>CFBundleName</key><string>Commented</string> -->
  <key>CFBundleName</key>
  <string>Tom &amp; Jerry&#x2122;</string>
  <key>Empty</key><string/>
  <key>CFBundleIdentifier</key><string>com.example.tj</string>
  <key>Sub</key><dict><key>CFBundleIdentifier</key><string>wrong</string></dict>
</dict>
</plist>`;
    const strings = readPlistStrings(xml)!;
    expect(strings.get('CFBundleName')).toBe('Tom & Jerry™');
    expect(strings.get('CFBundleIdentifier')).toBe('com.example.tj');
    expect(strings.has('CFBundleVersion')).toBe(false);
    expect(strings.has('Empty')).toBe(false);
  });

  it('returns null for binary plists and non-plists', () => {
    expect(readPlistStrings(Buffer.from('bplist00\u00d1\u0001\u0002'))).toBeNull();
    expect(readPlistStrings('hello')).toBeNull();
  });
});
