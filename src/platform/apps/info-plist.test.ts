import bplistCreator from 'bplist-creator';
import { describe, expect, it } from 'vitest';
import { readPlistStrings } from './info-plist';

describe('readPlistStrings', () => {
  it('reads the top-level string values of an XML plist and skips nested containers', async () => {
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
    const strings = (await readPlistStrings(xml))!;
    expect(strings.get('CFBundleName')).toBe('Tom & Jerry™');
    expect(strings.get('CFBundleIdentifier')).toBe('com.example.tj');
    expect(strings.has('CFBundleVersion')).toBe(false);
    expect(strings.get('Empty')).toBe('');
    expect([...strings.keys()].sort()).toEqual(['CFBundleIdentifier', 'CFBundleName', 'Empty']);
  });

  it('reads a binary plist (as Xcode writes many Info.plist files)', async () => {
    // A real binary plist, written by a binary plist writer: the same keys as the XML above.
    const binary = bplistCreator({
      CFBundleDocumentTypes: [{ CFBundleName: 'Nested' }],
      LSRequiresNativeExecution: true,
      CFBundleVersion: 5,
      CFBundleName: 'Tom & Jerry™',
      CFBundleIdentifier: 'com.example.tj',
      CFBundleExecutable: 'TomAndJerry',
      Sub: { CFBundleIdentifier: 'wrong' },
    });
    expect(binary.subarray(0, 8).toString('latin1')).toBe('bplist00');
    const strings = (await readPlistStrings(binary))!;
    expect(Object.fromEntries(strings)).toEqual({ CFBundleName: 'Tom & Jerry™', CFBundleIdentifier: 'com.example.tj', CFBundleExecutable: 'TomAndJerry' });
  });

  it('returns null for what is not a plist with a dictionary at its root', async () => {
    expect(await readPlistStrings(Buffer.from('bplist00\u00d1\u0001\u0002'))).toBeNull(); // truncated binary
    expect(await readPlistStrings('hello')).toBeNull();
    expect(await readPlistStrings('<plist version="1.0"><dict><key>A</key>')).toBeNull(); // truncated XML
    expect(await readPlistStrings(bplistCreator(['not', 'a', 'dictionary']))).toBeNull();
    expect(await readPlistStrings('<?xml version="1.0"?><plist version="1.0"><array><string>x</string></array></plist>')).toBeNull();
  });
});
