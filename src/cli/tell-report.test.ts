import { describe, expect, it } from 'vitest';
import { emptyReport, type ExecReport } from '../protocol/report';
import type { Io } from './io';
import { tellReport } from './tell-report';

// What people and programs read after `run`, `undo`, `presets apply`: the split between
// stdout and stderr, and that nothing is said twice.

function captured(): Io & { stdout: string; stderr: string } {
  const io = {
    stdout: '',
    stderr: '',
    out: (t: string) => void (io.stdout += t),
    err: (t: string) => void (io.stderr += t),
    readStdin: async () => '',
    interactive: () => false,
    ask: async () => '',
  };
  return io;
}

const partlyFailed: ExecReport = emptyReport('failed', {
  results: [
    {
      index: 0,
      type: 'place_app',
      ok: true,
      message: 'XTerm → the right monitor',
      data: { window_id: '0x1', before: [0, 0, 640, 480], requested: [1920, 0, 2560, 480], bounds: [1920, 0, 2560, 480] },
    },
    { index: 1, type: 'focus_app', ok: false, message: "XClock's window closed after the snapshot; nothing was changed", code: 'window_gone' },
  ],
  warnings: ['history could not be written'],
});

describe('tellReport', () => {
  it('for people: what was done on stdout, each failure and warning once on stderr', () => {
    const io = captured();
    tellReport(partlyFailed, io, { json: false });
    expect(io.stdout).toBe('XTerm → the right monitor\n');
    expect(io.stderr).toBe("✗ XClock's window closed after the snapshot; nothing was changed\nwarning: history could not be written\n");
  });

  it('--json: the full report with the extra fields on stdout; stderr names the failed command, as exec does', () => {
    const io = captured();
    tellReport(partlyFailed, io, { json: true, extra: { planner: 'local' } });
    expect(JSON.parse(io.stdout)).toEqual({ ...partlyFailed, planner: 'local' });
    expect(io.stderr).toBe("commands[1] (focus_app) failed: XClock's window closed after the snapshot; nothing was changed\nwarning: history could not be written\n");
  });

  it('invalid input: the field errors on stderr and nothing on stdout', () => {
    const io = captured();
    tellReport(emptyReport('invalid', { errors: [{ path: 'preset_name', message: 'no preset named "nope"' }] }), io, { json: false });
    expect(io.stdout).toBe('');
    expect(io.stderr).toBe('preset_name: no preset named "nope"\n');
  });

  it('--verbose: the numbers behind each sentence (a placed window\'s frame, an undone batch\'s windows)', () => {
    const io = captured();
    tellReport(partlyFailed, io, { json: false, verbose: true });
    expect(io.stdout).toBe('XTerm → the right monitor\n  frame 1920,0 640x480\n');
    const undone = emptyReport('done', {
      results: [
        {
          index: 0,
          type: 'undo',
          ok: true,
          message: 'Undid "move XTerm to the right monitor": XTerm back where it was',
          data: { undone: 1, batches: ['b1'], restored: [{ app: 'XTerm', window_id: '0x1', bounds: [0, 0, 634, 476] }] },
        },
      ],
    });
    const io2 = captured();
    tellReport(undone, io2, { json: false, verbose: true });
    expect(io2.stdout).toBe('Undid "move XTerm to the right monitor": XTerm back where it was\n  XTerm at 0,0 634x476\n');
  });

  it('a batch with nothing in it says so', () => {
    const io = captured();
    tellReport(emptyReport('done'), io, { json: false });
    expect(io.stdout).toBe('Nothing to do\n');
  });
});
