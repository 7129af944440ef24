// Checks the real test desktop with independent tools (xrandr, wmctrl, ps, xdpyinfo, HTTP, CDP),
// not with the fixture's own bookkeeping.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import CDP from 'chrome-remote-interface';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeDesktop } from './describe-desktop';
import { startDesktop, type Desktop } from './desktop';
import { startTestPages } from './test-pages';
import { waitFor, WAIT_MS } from './wait-for';

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { env, timeout: WAIT_MS }, (err, stdout, stderr) =>
      err ? reject(new Error(`${cmd} ${args.join(' ')}: ${err.message} ${stderr}`)) : resolve(stdout),
    );
  });
}

/** Monitors as xrandr reports them, e.g. " 0: LEFT 1920/508x1080/286+0+0  screen". */
async function monitors(env: NodeJS.ProcessEnv) {
  const out = await run('xrandr', ['--listmonitors'], env);
  return [...out.matchAll(/^\s*\d+:\s+[+*]*(\S+)\s+(\d+)\/\d+x(\d+)\/\d+\+(\d+)\+(\d+)/gm)].map((m) => ({
    name: m[1],
    width: Number(m[2]),
    height: Number(m[3]),
    x: Number(m[4]),
    y: Number(m[5]),
  }));
}

/** Running (non-zombie) processes per `ps`: pid, ppid, process group, command name. */
async function processes() {
  const out = await run('ps', ['-eo', 'pid=,ppid=,pgid=,stat=,comm=']);
  return out
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((f) => f.length >= 5 && !f[3]!.startsWith('Z'))
    .map(([pid, ppid, pgid, , comm]) => ({ pid: Number(pid), ppid: Number(ppid), pgid: Number(pgid), comm: comm! }));
}

/** Opens `url` in a new tab through the browser websocket (also proving browserWsUrl works). */
async function openTab(desk: Desktop, url: string): Promise<string> {
  const browser = await CDP({ target: desk.chrome!.browserWsUrl, local: true });
  try {
    return (await browser.Target.createTarget({ url })).targetId;
  } finally {
    await browser.close();
  }
}

const MARK = 'DESKPILOT_TEST_MARK';

/** Tags the X server's root window, so we can later tell *this* server from a newer one on the same display. */
async function markXServer(desk: Desktop): Promise<string> {
  const mark = `${process.pid}-${desk.pids.xvfb}-${Date.now()}`;
  await run('xprop', ['-root', '-f', MARK, '8s', '-set', MARK, mark], desk.env);
  return mark;
}

/** True when the X server that carried `mark` no longer answers on `display`. */
async function xServerGone(display: string, mark: string): Promise<boolean> {
  try {
    await run('xdpyinfo', ['-display', display]);
  } catch {
    return true; // nothing listens on that display any more
  }
  // Parallel test files reuse a freed display number at once: then it must be a different server.
  const prop = await run('xprop', ['-display', display, '-root', MARK]).catch(() => '');
  return !prop.includes(mark);
}

/** Our own running children (minus the `ps` that lists them). */
async function childPids(): Promise<number[]> {
  return (await processes())
    .filter((p) => p.ppid === process.pid && p.comm !== 'ps')
    .map((p) => p.pid)
    .sort((a, b) => a - b);
}

describeDesktop('real test desktop', () => {
  let desk: Desktop;

  beforeAll(async () => {
    desk = await startDesktop({ apps: ['xterm', 'xclock'] });
  });

  afterAll(async () => {
    await desk?.stop();
  });

  it('has two side-by-side 1920x1080 monitors', async () => {
    expect(desk.display).toMatch(/^:\d+$/);
    expect(await monitors(desk.env)).toEqual([
      { name: 'LEFT', width: 1920, height: 1080, x: 0, y: 0 },
      { name: 'RIGHT', width: 1920, height: 1080, x: 1920, y: 0 },
    ]);
  });

  it('runs openbox with the xterm, xclock and Chromium windows mapped', async () => {
    // wmctrl only works with an EWMH window manager, so this also proves openbox is managing.
    const lines = (await run('wmctrl', ['-lpx'], desk.env)).trim().split('\n');
    const windows = lines.map((line) => {
      const [id, , pid, wmClass] = line.split(/\s+/);
      return { id, pid: Number(pid), wmClass };
    });
    const pidOf = (cls: RegExp) => windows.find((w) => cls.test(w.wmClass ?? ''))?.pid;
    expect(pidOf(/^xterm\.XTerm$/)).toBe(desk.pids.apps.xterm);
    expect(pidOf(/^xclock\.XClock$/)).toBe(desk.pids.apps.xclock);
    expect(windows.map((w) => w.pid)).toContain(desk.chrome!.pid);
  });

  it("answers CDP on Chromium's advertised port and websocket", async () => {
    const chrome = desk.chrome!;
    const version = (await (await fetch(`http://127.0.0.1:${chrome.port}/json/version`)).json()) as Record<string, string>;
    expect(version.webSocketDebuggerUrl).toBe(chrome.browserWsUrl);
    expect(version.Browser).toMatch(/Chrom/);
    expect(existsSync(chrome.userDataDir)).toBe(true);
  });

  it('serves test pages whose title and description survive HTML escaping', async () => {
    const title = 'Reddit <b>&</b> "friends"';
    const desc = `It's <the> "front page" & more`;
    const res = await fetch(desk.pages.url('page', { title, desc, text: 'hello <world>' }));
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<title>Reddit &lt;b&gt;&amp;&lt;/b&gt; &quot;friends&quot;</title>');
    expect(html).toContain('hello &lt;world&gt;');

    // The real reading: what a browser makes of the page.
    const url = desk.pages.url('page', { title, desc });
    const targetId = await openTab(desk, url);
    const client = await CDP({ port: desk.chrome!.port, target: targetId, local: true });
    try {
      const read = async () =>
        (
          await client.Runtime.evaluate({
            // The new tab starts on about:blank; only read once our page has fully loaded.
            expression: `location.href === ${JSON.stringify(url)} && document.readyState === 'complete'
              ? [document.title, document.querySelector('meta[name=description]')?.content] : null`,
            returnByValue: true,
          })
        ).result.value as [string, string] | null;
      // A navigation in flight can reject an evaluate.
      const seen = await waitFor('the page to load', () => read().catch(() => null).then((v) => v ?? undefined));
      expect(seen).toEqual([title, desc]);
    } finally {
      await client.close();
      await CDP.Close({ port: desk.chrome!.port, id: targetId });
    }
  });

  it('leaves out the description meta unless asked, and has an index and a 404', async () => {
    const html = await (await fetch(desk.pages.url('page', { title: 'Plain' }))).text();
    expect(html).toContain('<title>Plain</title>');
    expect(html).not.toContain('name="description"');
    expect((await fetch(desk.pages.url(''))).status).toBe(200);
    expect((await fetch(desk.pages.url('nope'))).status).toBe(404);
  });

  it('answers /slow after the requested delay, so a shorter delay finishes first', async () => {
    const order: string[] = [];
    await Promise.all([
      fetch(desk.pages.url('slow', { ms: '2000' })).then(async (r) => order.push(`2000:${r.status}:${await r.text()}`)),
      fetch(desk.pages.url('slow', { ms: '50' })).then(async (r) => order.push(`50:${r.status}:${await r.text()}`)),
    ]);
    expect(order[0]).toMatch(/^50:200:.*Answered after 50 ms/s);
    expect(order[1]).toMatch(/^2000:200:.*Answered after 2000 ms/s);
  });

  it('serves /frozen as a page whose renderer stops answering after load', async () => {
    const chrome = desk.chrome!;
    const targetId = await openTab(desk, desk.pages.url('frozen'));
    const client = await CDP({ port: chrome.port, target: targetId, local: true });
    client.on('error', () => {});
    try {
      // The page adds " (frozen)" to its title as its last act before the endless loop.
      await waitFor('the page to mark itself frozen', async () => {
        const list = (await (await fetch(`http://127.0.0.1:${chrome.port}/json/list`)).json()) as Array<{ id: string; title: string }>;
        return list.find((t) => t.id === targetId)?.title === 'Frozen page (frozen)';
      });
      // From then on nothing answers: the loop never yields.
      const answer = client.Runtime.evaluate({ expression: 'document.title' }).then(
        () => 'answered',
        () => 'answered',
      );
      let timer: NodeJS.Timeout | undefined;
      const silence = new Promise<string>((resolve) => (timer = setTimeout(() => resolve('silent'), 3_000)));
      expect(await Promise.race([answer, silence])).toBe('silent');
      clearTimeout(timer);
      // The browser process still knows the tab and its title: only the renderer is stuck.
      const list = (await (await fetch(`http://127.0.0.1:${chrome.port}/json/list`)).json()) as Array<{ id: string; title: string }>;
      expect(list.find((t) => t.id === targetId)?.title).toBe('Frozen page (frozen)');
    } finally {
      await client.close().catch(() => {});
      // The frozen tab stays open on purpose: stop() must cope with a hung renderer.
    }
  });

  it('stops its test page server promptly even with a request still pending', async () => {
    const pages = await startTestPages();
    const pending = fetch(pages.url('slow', { ms: '100000' }));
    await waitFor('the request to reach the server', () => pages.slowPending() === 1);
    await pages.stop();
    await pages.stop(); // idempotent
    await expect(pending).rejects.toThrow();
    await expect(fetch(pages.url('page'))).rejects.toThrow();
  });

  it('runs a second desktop alongside, on its own display', async () => {
    const second = await startDesktop({ chrome: false });
    const mark = await markXServer(second);
    try {
      expect(second.display).not.toBe(desk.display);
      expect(second.chrome).toBeNull();
      expect((await monitors(second.env)).map((m) => m.name)).toEqual(['LEFT', 'RIGHT']);
    } finally {
      await second.stop();
    }
    expect(await xServerGone(second.display, mark)).toBe(true);
    // Stopping the second one left the first untouched.
    await expect(run('xdpyinfo', ['-display', desk.display])).resolves.toContain('3840x1080');
  });

  it('tears down everything it started when a start-up step fails', async () => {
    const before = await childPids();
    await expect(startDesktop({ apps: ['deskpilot-no-such-app' as 'xterm'] })).rejects.toThrow(
      /startDesktop: starting deskpilot-no-such-app failed: .*ENOENT/,
    );
    // Xvfb, openbox and the Chromium that was starting in parallel are all gone again.
    expect(await childPids()).toEqual(before);
  });

  it('stop() ends every process group, the X server and the temp profile', async () => {
    const chrome = desk.chrome!;
    const pids = [desk.pids.xvfb, desk.pids.openbox, ...Object.values(desk.pids.apps), chrome.pid];
    expect(pids).toHaveLength(5);
    // Chromium's helpers (zygote, renderers, GPU) share its process group.
    expect((await processes()).filter((p) => p.pgid === chrome.pid).length).toBeGreaterThan(1);
    const mark = await markXServer(desk);
    expect(await xServerGone(desk.display, mark)).toBe(false);

    await desk.stop();
    await desk.stop(); // idempotent

    for (const pid of pids) expect(() => process.kill(pid, 0), `pid ${pid}`).toThrow();
    expect((await processes()).filter((p) => pids.includes(p.pgid))).toEqual([]);
    expect(await xServerGone(desk.display, mark)).toBe(true);
    expect(existsSync(chrome.userDataDir)).toBe(false);
    await expect(fetch(desk.pages.url('page'))).rejects.toThrow();
  });
});
