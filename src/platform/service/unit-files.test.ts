import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { isOurUnit, launchAgentPlist, systemdQuote, systemdUnit, unitLocation, UnitArgumentError } from './unit-files';

const line = { node: '/usr/bin/node', bin: '/opt/deskpilot/bin/deskpilot.js' };

/** Reads a plist with Python's plistlib (a real parser) when python3 is there. */
function parsePlist(text: string): Record<string, unknown> | null {
  try {
    return JSON.parse(execFileSync('python3', ['-c', 'import json,plistlib,sys; print(json.dumps(plistlib.loads(sys.stdin.buffer.read())))'], { input: text, encoding: 'utf8' }));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

describe('service unit files', () => {
  it('puts the systemd unit under XDG_CONFIG_HOME when it is absolute, else ~/.config', () => {
    expect(unitLocation('linux', { XDG_CONFIG_HOME: '/x/cfg' }, '/home/u')).toEqual({ kind: 'systemd', file: '/x/cfg/systemd/user/deskpilot.service' });
    expect(unitLocation('linux', { XDG_CONFIG_HOME: 'relative' }, '/home/u')!.file).toBe('/home/u/.config/systemd/user/deskpilot.service');
    expect(unitLocation('linux', {}, '/home/u')!.file).toBe('/home/u/.config/systemd/user/deskpilot.service');
    expect(unitLocation('darwin', {}, '/Users/u')).toEqual({ kind: 'launchd', file: '/Users/u/Library/LaunchAgents/app.deskpilot.service.plist' });
    expect(unitLocation('win32', {}, 'C:\\Users\\u')).toBeNull();
  });

  it('quotes ExecStart arguments so systemd neither splits them nor expands % and $', () => {
    expect(systemdQuote('/usr/bin/node')).toBe('/usr/bin/node');
    expect(systemdQuote('/home/u/my config')).toBe('"/home/u/my config"');
    expect(systemdQuote('/a/100%/$HOME')).toBe('"/a/100%%/$$HOME"');
    expect(systemdQuote('/a/"q" \\b')).toBe('"/a/\\"q\\" \\\\b"');
    expect(() => systemdQuote('/a\nb')).toThrow(UnitArgumentError);
  });

  it('writes a systemd unit tied to the graphical session, restarted on failure, with the marker', () => {
    const unit = systemdUnit({ ...line, configDir: '/home/u/deskpilot test' });
    expect(isOurUnit(unit)).toBe(true);
    expect(unit).toContain('\nExecStart=/usr/bin/node --max-semi-space-size=2 /opt/deskpilot/bin/deskpilot.js service --config-dir "/home/u/deskpilot test"\n');
    expect(unit).toContain('\nRestart=on-failure\n');
    // glibc's malloc arenas: fewer keep the long-lived service smaller (soak bench).
    expect(unit).toContain('\nType=simple\nEnvironment=MALLOC_ARENA_MAX=2\nEnvironment=MALLOC_MMAP_THRESHOLD_=131072\nEnvironment=MALLOC_TRIM_THRESHOLD_=131072\nExecStart=');
    expect(unit).toContain('\nPartOf=graphical-session.target\nAfter=graphical-session.target\n');
    expect(unit).toContain('\n[Install]\nWantedBy=graphical-session.target\n');
    expect(systemdUnit(line)).toContain('\nExecStart=/usr/bin/node --max-semi-space-size=2 /opt/deskpilot/bin/deskpilot.js service\n');
    expect(isOurUnit('[Unit]\nDescription=someone else\n')).toBe(false);
  });

  // launchd cannot run here: the LaunchAgent is checked by content (and parsed as a plist when python3 is there).
  it('writes a LaunchAgent plist that starts the service at login and again after a failure (content only)', () => {
    const text = launchAgentPlist({ ...line, configDir: '/Users/u/a & <b>' }, '/Users/u/Library/Logs/DeskPilot/service.log');
    expect(isOurUnit(text)).toBe(true);
    const plist = parsePlist(text);
    if (plist === null) return;
    expect(plist).toEqual({
      Label: 'app.deskpilot.service',
      ProgramArguments: ['/usr/bin/node', '--max-semi-space-size=2', '/opt/deskpilot/bin/deskpilot.js', 'service', '--config-dir', '/Users/u/a & <b>'],
      RunAtLoad: true,
      KeepAlive: { SuccessfulExit: false },
      ProcessType: 'Interactive',
      StandardOutPath: '/Users/u/Library/Logs/DeskPilot/service.log',
      StandardErrorPath: '/Users/u/Library/Logs/DeskPilot/service.log',
    });
  });
});
