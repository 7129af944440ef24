import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { procStatState, processAlive } from './process-alive';

describe('process liveness', () => {
  it('reads the state letter even when the command name has spaces and parentheses', () => {
    expect(procStatState('1234 (a) b (c)) Z 1 1234 1234 0 -1')).toBe('Z');
    expect(procStatState('1 (systemd) S 0 1 1')).toBe('S');
    expect(procStatState('garbage')).toBeNull();
  });

  it('is true for this process and false for nonsense pids', async () => {
    expect(await processAlive(process.pid)).toBe(true);
    expect(await processAlive(0)).toBe(false);
    expect(await processAlive(-1)).toBe(false);
  });

  it('counts a zombie (exited, not reaped) as dead, although kill -0 still reaches it', async () => {
    // The shell starts a short sleep in the background, prints its pid, then becomes a long
    // sleep, which never reaps it: the short one stays a zombie until the long one ends.
    const parent = spawn('sh', ['-c', 'sleep 0.2 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const zombie = await new Promise<number>((resolve) => parent.stdout!.once('data', (d: Buffer) => resolve(Number(String(d).trim()))));
      let state: string | null = null;
      for (let i = 0; i < 400 && state !== 'Z'; i++) {
        state = procStatState(await readFile(`/proc/${zombie}/stat`, 'utf8'));
        if (state !== 'Z') await new Promise((r) => setTimeout(r, 5));
      }
      expect(state).toBe('Z');
      expect(() => process.kill(zombie, 0)).not.toThrow();
      expect(await processAlive(zombie)).toBe(false);
    } finally {
      parent.kill('SIGKILL');
    }
  });
});
