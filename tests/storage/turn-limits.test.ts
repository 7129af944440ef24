import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RemoteDesk } from '../../src/app/remote-desk';
import { connectService } from '../../src/platform/service/socket-client';
import { MAX_TURN_TEXT } from '../../src/protocol/turn';
import { runCli } from '../support/cli';
import { waitFor } from '../support/wait-for';
import { spawnService, stopAllServices, type ServiceProcess } from '../service/service-process';

// Issue 24, D5: one 4,500-character request remembered in turns.json broke every plan answered
// through the service ("result.turns[0].text: Too big") for as long as it was remembered, across
// restarts. What is stored is bounded as what is sent, and one bad record never fails an answer.
// Real CLI, real service, and a real client of its socket (as the MCP server and the app use it).

describe('remembered turns and the service (real processes)', () => {
  let tmp: string;

  beforeAll(() => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-turns-'));
  });
  afterAll(async () => {
    await stopAllServices();
    rmSync(tmp, { recursive: true, force: true });
  });

  const envFor = (configDir: string): NodeJS.ProcessEnv => {
    const env: NodeJS.ProcessEnv = { ...process.env, DESKPILOT_CONFIG_DIR: configDir };
    // No desktop is needed: the offline matcher plans against whatever the snapshot has.
    delete env.DISPLAY;
    delete env.DESKPILOT_CHROME_URL;
    delete env.XDG_RUNTIME_DIR;
    return env;
  };

  async function planThroughService(svc: ServiceProcess, text: string) {
    const client = await connectService(await svc.listening);
    if (!client) throw new Error('the service does not answer');
    const desk = await RemoteDesk.open(client);
    try {
      return await desk.plan(text, { mode: 'local' });
    } finally {
      await desk.close();
    }
  }

  it('an over-long request is remembered cut to the limit, and planning through the service still answers', async () => {
    const configDir = path.join(tmp, 'long');
    const env = envFor(configDir);
    const long = 'please sort out the thing I was working on earlier ' + 'and so on '.repeat(445);
    expect(long.length).toBeGreaterThan(4500);
    const asked = await runCli(['--no-service', 'run', long], { env });
    expect(asked.code, asked.stderr).toBe(3); // needs clarification: the offline matcher cannot place it
    const stored = JSON.parse(readFileSync(path.join(configDir, 'turns.json'), 'utf8')).turns;
    expect(stored).toHaveLength(1);
    expect(stored[0].text.length).toBe(MAX_TURN_TEXT);
    expect(stored[0].text.startsWith('please sort out the thing')).toBe(true);

    const svc = spawnService(env);
    const planned = await planThroughService(svc, 'how many tabs are open');
    expect(planned.outcome.envelope.commands[0]?.type).toBe('query');
    expect(planned.turns.map((t) => t.text.slice(0, 25))).toEqual(['please sort out the thing']);
    await svc.stop();
  }, 60_000);

  it('a turns.json with over-long and malformed records: the rest are served, the bad ones skipped and said', async () => {
    const configDir = path.join(tmp, 'bad');
    mkdirSync(configDir, { recursive: true });
    const now = Date.now();
    const good = { at: now - 1000, text: 'put xterm on the left', envelope: { commands: [] }, outcome: 'done' };
    writeFileSync(
      path.join(configDir, 'turns.json'),
      JSON.stringify({
        version: 1,
        turns: [good, { at: now - 900, text: 'x'.repeat(4500), envelope: {}, outcome: 'asked' }, { at: now - 800, text: 42, envelope: {}, outcome: 'done' }],
      }),
    );
    const svc = spawnService(envFor(configDir));
    const planned = await planThroughService(svc, 'how many tabs are open');
    expect(planned.turns.map((t) => t.text)).toEqual(['put xterm on the left']);
    await waitFor('the service to say the bad turns are skipped', () => svc.output().includes('turns[2] is skipped'));
    expect(svc.output()).toContain('turns.json: turns[1] is skipped (text: must be at most 4000 characters)');
    expect(svc.output()).toContain('turns.json: turns[2] is skipped (text: must be a string)');
    await svc.stop();
  }, 60_000);
});
