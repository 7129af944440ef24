import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { COMMAND_TYPES } from '../../src/protocol/commands';
import { describeDesktop } from '../support/describe-desktop';
import { POLL } from '../support/wait-for';
import { frameOf } from '../support/x-observe';
import { startUiRig, type UiPage, type UiRig } from '../harness/ui-rig';

// The launcher's live list on the real engine: the real renderer in a real Chromium page, the
// real AppService behind the web harness, the real test desktop. What the words would act on
// is listed while they are typed; ↑/↓, Enter, Tab/→ and Ctrl+number act on it, and every
// effect is read back independently (raw CDP for tabs, xwininfo for windows).

describeDesktop('the launcher lists what the words would act on (web harness, real engine, real desktop)', () => {
  let rig: UiRig;
  let ui: UiPage | null = null;

  beforeAll(async () => {
    rig = await startUiRig({ apps: ['xterm'] });
  });

  afterAll(async () => {
    await rig?.stop();
  });

  afterEach(async () => {
    const problems = ui?.problems ?? [];
    await ui?.close();
    ui = null;
    expect(problems).toEqual([]);
  });

  /** The launcher as main shows it: a window that takes the height the page asks for; `tall`: a fixed window with room for any list. */
  const open = async (opts: { tall?: boolean } = {}) => {
    ui = await rig.open('launcher', opts.tall ? { width: 640, height: 720 } : { width: 640, height: 64, fit: true });
    return ui.page;
  };
  const field = (page: Page) => page.getByRole('combobox', { name: 'Command' });
  const matches = (page: Page) => page.getByRole('listbox', { name: 'Matches' });
  /** The list's rows (not the actions opened under one). */
  const rows = (page: Page) => matches(page).locator(':scope > li > [role="option"]');
  const text = (l: Locator) => l.textContent({ timeout: POLL.timeout }).then((t) => t ?? '');
  /** Each row as a screen reader reads it: its text without what is hidden from it (the icon's letter, the shortcut). */
  const rowTexts = (page: Page) =>
    rows(page).evaluateAll((els) =>
      els.map((e) => {
        const copy = e.cloneNode(true) as typeof e;
        for (const hidden of copy.querySelectorAll('[aria-hidden="true"]')) hidden.remove();
        return (copy.textContent ?? '').replace(/\s+/g, ' ').trim();
      }),
    );
  const highlighted = (page: Page) => matches(page).locator(':scope > li > [role="option"][aria-selected="true"]');
  /** Types as a person does, key by key, and waits until the plan row says what Enter does with these words. */
  const type = async (page: Page, words: string) => {
    await field(page).fill('');
    await field(page).pressSequentially(words);
    expect(await field(page).inputValue()).toBe(words);
    await expect.poll(() => matches(page).getAttribute('data-settled'), POLL).toBe('true');
  };
  /**
   * What the page's probe left in window[name], once it is there. Polled with page.evaluate:
   * Playwright's waitForFunction polls by evaluating a string in the page, which the renderer's
   * CSP refuses ('unsafe-eval') whenever the value is not there at the first look.
   */
  const seenInPage = async (page: Page, name: string): Promise<unknown> => {
    await expect.poll(() => page.evaluate(`window.${name} !== undefined`), POLL).toBe(true);
    return page.evaluate(`window.${name}`);
  };
  const expectActive = async (ids: Map<string, string>, title: string) => {
    await expect.poll(() => rig.activeTabTitle(), POLL).toBe(title);
    await expect.poll(() => rig.visibility(ids.get(title)!), POLL).toBe('visible');
  };

  it('tabs: a site word lists its tabs under what Enter would do; ↓ then Enter switches to the one chosen', async () => {
    const ids = await rig.setTabs(['GitHub - deskpilot/issues', 'Hacker News', 'GitHub - deskpilot/pulls', 'Rust Docs']);
    await expectActive(ids, 'Rust Docs');
    const page = await open();
    await type(page, 'github');
    const listed = await rowTexts(page);
    // The offline matcher would ask which one (two GitHub tabs); both are listed below it.
    expect(listed[0]).toMatch(/^Asks: .*which tab\?/i);
    // A page served from this machine is named as such, not by a bare 127.0.0.1.
    expect(listed.slice(1)).toEqual(['GitHub - deskpilot/issues, this computer, Tab', 'GitHub - deskpilot/pulls, this computer, Tab']);
    expect(listed.join(' ')).not.toContain('127.0.0.1');

    // The field keeps the focus; the highlighted row is its active descendant.
    await field(page).press('ArrowDown');
    await field(page).press('ArrowDown');
    expect(await text(highlighted(page))).toContain('GitHub - deskpilot/pulls');
    expect(await field(page).getAttribute('aria-activedescendant')).toBe(await highlighted(page).getAttribute('id'));
    await field(page).press('ArrowUp');
    expect(await text(highlighted(page))).toContain('GitHub - deskpilot/issues');
    await field(page).press('ArrowDown');
    await field(page).press('Enter');
    await expectActive(ids, 'GitHub - deskpilot/pulls');
    await expect.poll(() => text(page.getByRole('list', { name: 'Results' })), POLL).toMatch(/^✓.*GitHub - deskpilot\/pulls/);
    // The words were used: the field and the list are empty for the next ones.
    expect(await field(page).inputValue()).toBe('');
    expect(await rows(page).count()).toBe(0);
  });

  it('a name the offline matcher does not know lists what it names first: "pul" + Enter switches to that tab', async () => {
    const ids = await rig.setTabs(['GitHub - deskpilot/issues', 'GitHub - deskpilot/pulls', 'Rust Docs']);
    const page = await open();
    await type(page, 'pul');
    expect(await rowTexts(page)).toEqual(['GitHub - deskpilot/pulls, this computer, Tab', 'Run “pul”, not a sentence the offline matcher knows']);
    await field(page).press('Enter');
    await expectActive(ids, 'GitHub - deskpilot/pulls');
  });

  it('a sentence the matcher does not know still goes to the planners on Enter', async () => {
    await rig.setTabs(['Hacker News', 'Rust Docs']);
    const page = await open();
    const submits = () => rig.harness.calls.filter((c) => c.channel === 'command:submit').length;
    const before = submits();
    await type(page, 'frobnicate the rust docs');
    expect(await rowTexts(page)).toEqual(['Run “frobnicate the rust docs”, not a sentence the offline matcher knows']);
    await field(page).press('Enter');
    await expect.poll(submits, POLL).toBe(before + 1);
    await page.getByRole('region', { name: 'Result' }).waitFor({ timeout: POLL.timeout });
  });

  it('typing plans on the snapshot taken when the launcher showed: one index per show, no command runs while typing', async () => {
    await rig.setTabs(['Hacker News', 'Rust Docs']);
    const calls = rig.harness.calls.length;
    const page = await open();
    await type(page, 'switch to hacker news');
    const channels = rig.harness.calls.slice(calls).map((c) => c.channel);
    expect(channels.filter((c) => c === 'launcher:index')).toHaveLength(1);
    expect(channels.filter((c) => c === 'launcher:preview').length).toBeGreaterThan(0);
    expect(channels.filter((c) => c.startsWith('command:') || c === 'launcher:act')).toEqual([]);
    expect((await rowTexts(page))[0]).toBe('Switch to tab 1 · Hacker News');
    expect(await rig.activeTabTitle()).toBe('Rust Docs');
  });

  it('closing through the actions (Tab): the plan says it asks first, the dialog asks, and the tab closes', async () => {
    await rig.setTabs(['Reddit - front page', 'Hacker News', 'Reddit - r/node', 'Rust Docs']);
    const page = await open();
    await type(page, 'close all reddit tabs');
    expect((await rowTexts(page))[0]).toBe('Close 2 tabs, asks first');

    await type(page, 'node');
    const listed = await rowTexts(page);
    expect(listed[0]).toBe('Switch to tab 3 · Reddit - r/node');
    expect(listed[1]).toBe('Reddit - r/node, this computer, Tab');
    // Tab on the plan row is the field's own (it has no actions); on the tab's row it opens them.
    await field(page).press('ArrowDown');
    await field(page).press('Tab');
    const actions = page.getByRole('group', { name: 'Actions: Reddit - r/node' }).getByRole('option');
    const labels = await actions.allTextContents();
    // Pin is offered exactly when the protocol has a pin command.
    expect(labels).toEqual(['Switch to tab', 'Close tab', ...((COMMAND_TYPES as readonly string[]).includes('pin_tabs') ? ['Pin tab'] : [])]);
    expect(await field(page).getAttribute('aria-activedescendant')).toBe(await actions.nth(0).getAttribute('id'));
    await field(page).press('ArrowDown');
    await field(page).press('Enter');
    const dialog = page.getByRole('alertdialog');
    await dialog.waitFor({ timeout: POLL.timeout });
    expect(await dialog.getByRole('listitem').allTextContents()).toEqual([expect.stringContaining('Reddit - r/node')]);
    await dialog.getByRole('button', { name: 'Close them' }).click();
    await expect.poll(() => rig.raw.titles(), POLL).toEqual(['Hacker News', 'Reddit - front page', 'Rust Docs']);
  });

  it('Esc closes the actions first, then clears the words', async () => {
    await rig.setTabs(['Hacker News', 'Rust Docs']);
    const page = await open();
    await type(page, 'rust');
    await field(page).press('ArrowDown');
    await field(page).press('ArrowRight');
    const menu = page.getByRole('group', { name: /^Actions: / });
    await menu.waitFor({ timeout: POLL.timeout });
    await field(page).press('Escape');
    await menu.waitFor({ state: 'detached', timeout: POLL.timeout });
    expect(await field(page).inputValue()).toBe('rust');
    await field(page).press('Escape');
    await expect.poll(() => field(page).inputValue(), POLL).toBe('');
    expect(await rows(page).count()).toBe(0);
  });

  it('apps: a running app is listed with its window; "move to the right monitor" moves the real xterm; installed apps are listed as not running', async () => {
    const xterm = rig.windowOf('xterm');
    const page = await open();
    await type(page, 'xterm');
    const listed = await rowTexts(page);
    expect(listed[0]).toBe('Bring XTerm to the front');
    const row = listed.findIndex((t) => /^XTerm, .*, App · (left|right) monitor$/.test(t));
    expect(row).toBeGreaterThan(0);
    // Debian's xterm package installs UXTerm too: an installed app, not running.
    expect(listed).toContain('UXTerm, Not running — opens it, App');

    const startX = frameOf(rig.env, xterm)[0];
    const target = startX >= 1920 ? 'left' : 'right';
    for (let i = 0; i < row; i++) await field(page).press('ArrowDown');
    await field(page).press('Tab');
    const actions = page.getByRole('group', { name: 'Actions: XTerm' }).getByRole('option');
    const labels = await actions.allTextContents();
    expect(labels).toEqual(['Bring to front', 'Move to the left monitor', 'Move to the right monitor', 'Quit XTerm']);
    for (let i = 0; i < labels.indexOf(`Move to the ${target} monitor`); i++) await field(page).press('ArrowDown');
    await field(page).press('Enter');
    await expect.poll(() => frameOf(rig.env, xterm)[0] >= 1920, POLL).toBe(target === 'right');
    await expect.poll(() => text(page.getByRole('list', { name: 'Results' })), POLL).toMatch(/^✓/);
  });

  it('presets: listed by name, and Ctrl+number applies one: the real xterm goes back to where it was saved', async () => {
    const xterm = rig.windowOf('xterm');
    const home = frameOf(rig.env, xterm);
    await rig.harness.service.handlers()['presets:save']({ name: 'live list layout' });
    expect(JSON.parse(readFileSync(path.join(rig.configDir, 'presets.json'), 'utf8')).presets.map((p: { name: string }) => p.name)).toContain('live list layout');
    // Away from the saved place, behind DeskPilot's back (xdotool), to the other monitor.
    execFileSync('xdotool', ['windowmove', '--sync', xterm, home[0] >= 1920 ? '300' : '2400', '300'], { env: rig.env });
    await expect.poll(() => frameOf(rig.env, xterm)[0] >= 1920, POLL).toBe(home[0] < 1920);

    const page = await open();
    await type(page, 'live list');
    const listed = await rowTexts(page);
    const at = listed.findIndex((t) => t.startsWith('live list layout'));
    expect(at).toBeGreaterThanOrEqual(0);
    expect(listed[at]).toBe('live list layout, Window layout, Preset');
    await field(page).press(`Control+${at + 1}`);
    await expect.poll(() => frameOf(rig.env, xterm), POLL).toEqual(home);
  });

  it('the list follows the desk: a tab opened while the launcher shows appears without typing again, and without another index request', async () => {
    await rig.setTabs(['Hacker News', 'Rust Docs']);
    const calls = rig.harness.calls.length;
    const page = await open();
    await type(page, 'zebra');
    // Polled: the desk may still be settling from setTabs (a pushed index asks for the preview again).
    await expect.poll(() => rowTexts(page), POLL).toEqual(['Run “zebra”, not a sentence the offline matcher knows']);
    await rig.raw.open(rig.desk.pages.url('page', { title: 'Zebra crossings' }));
    // The new tab is listed, and the matcher now knows "zebra" (it names that tab).
    await expect.poll(() => rowTexts(page), POLL).toContainEqual(expect.stringMatching(/^Zebra crossings, this computer, (Active )?[Tt]ab$/));
    await expect.poll(async () => (await rowTexts(page))[0], POLL).toMatch(/^Switch to tab \d · Zebra crossings$/);
    // Typing on: the changed desk came pushed, or along with a preview; the window never asked again.
    await type(page, 'zebra crossings');
    await expect.poll(async () => (await rowTexts(page))[0], POLL).toMatch(/^Switch to tab \d · Zebra crossings$/);
    const channels = rig.harness.calls.slice(calls).map((c) => c.channel);
    expect(channels.filter((c) => c === 'launcher:index')).toHaveLength(1);
  });

  it('the launcher window is as tall as its content: it grows with the list and shrinks back when the words are cleared', async () => {
    await rig.setTabs(['GitHub - a', 'GitHub - b', 'Hacker News']);
    const page = await open();
    await expect.poll(() => rig.harness.fitCalls.length, POLL).toBeGreaterThan(0);
    const idle = rig.harness.fitCalls.at(-1)!;
    await type(page, 'github');
    await expect.poll(() => rig.harness.fitCalls.at(-1)!, POLL).toBeGreaterThan(idle + 3 * 36);
    await expect.poll(() => page.viewportSize()?.height, POLL).toBe(rig.harness.fitCalls.at(-1));
    await field(page).press('Escape');
    await expect.poll(() => rig.harness.fitCalls.at(-1), POLL).toBe(idle);
  });

  it('a list that gets shorter has its new height in the very frame that shows it', async () => {
    await rig.setTabs(['GitHub - alpha', 'GitHub - beta', 'GitHub - gamma', 'Hacker News']);
    const page = await open();
    await type(page, 'github ');
    const before = (await rowTexts(page)).length;
    // Until the opening transition is over: the block is as tall as its content.
    const settledHeights = () =>
      page.evaluate(`(() => {
        const box = document.querySelector('.launcher-body');
        return box.getAnimations().length === 0 && Math.abs(box.getBoundingClientRect().height - box.firstElementChild.offsetHeight) <= 1;
      })()`);
    await expect.poll(settledHeights, POLL).toBe(true);
    // In the task right after the frame that first shows the rows for new words, compare the
    // block's height with its content's: the frame was painted at that height.
    // (Page code as a string: the tests' TypeScript has no DOM types for these.)
    await page.evaluate(`(() => {
      const list = document.getElementById('live-list');
      const box = document.querySelector('.launcher-body');
      const inner = box.firstElementChild;
      const seen = new MutationObserver(() => {
        const words = list.getAttribute('data-for') || '';
        if (!words.endsWith(' b')) return;
        seen.disconnect();
        requestAnimationFrame(() => {
          const ch = new MessageChannel();
          ch.port1.onmessage = () => (window.seenHeights = { words, box: box.getBoundingClientRect().height, content: inner.getBoundingClientRect().height });
          ch.port2.postMessage(0);
        });
      });
      seen.observe(list, { attributes: true, attributeFilter: ['data-for'] });
    })()`);
    await field(page).press('b');
    await expect.poll(() => matches(page).getAttribute('data-settled'), POLL).toBe('true');
    expect((await rowTexts(page)).length).toBeLessThan(before);
    const { box, content } = (await seenInPage(page, 'seenHeights')) as { box: number; content: number };
    // Three tabs became one: a shorter list, at its new height in that frame.
    expect(content).toBeGreaterThan(0);
    expect(Math.abs(box - content)).toBeLessThanOrEqual(1);
  });

  it('a list that gets longer while words are typed has its new height in the very frame that shows it, not eased open', async () => {
    await rig.setTabs(['GitHub - alpha', 'GitHub - beta', 'GitHub - gamma', 'Hacker News']);
    // A window with room for the longer list: a fitted window grows only after main is asked,
    // and until then caps the body (which then scrolls) whatever the body does.
    const page = await open({ tall: true });
    await type(page, 'github al');
    await expect.poll(() => matches(page).getAttribute('data-settled'), POLL).toBe('true');
    const before = (await rowTexts(page)).length;
    await page.evaluate(`(() => {
      const list = document.getElementById('live-list');
      const box = document.querySelector('.launcher-body');
      const inner = box.firstElementChild;
      const seen = new MutationObserver(() => {
        if ((list.getAttribute('data-for') || '') !== 'github ') return;
        seen.disconnect();
        requestAnimationFrame(() => {
          const ch = new MessageChannel();
          ch.port1.onmessage = () => (window.seenHeights = { box: box.getBoundingClientRect().height, content: inner.getBoundingClientRect().height, easing: box.getAnimations().length });
          ch.port2.postMessage(0);
        });
      });
      seen.observe(list, { attributes: true, attributeFilter: ['data-for'] });
    })()`);
    await field(page).press('Backspace');
    await field(page).press('Backspace');
    await expect.poll(() => matches(page).getAttribute('data-settled'), POLL).toBe('true');
    expect((await rowTexts(page)).length).toBeGreaterThan(before);
    const { box, content, easing } = (await seenInPage(page, 'seenHeights')) as { box: number; content: number; easing: number };
    // One tab became three: a longer list, at its full height in that frame, with no transition running.
    expect(content).toBeGreaterThan(0);
    expect(Math.abs(box - content)).toBeLessThanOrEqual(1);
    expect(easing).toBe(0);
  });

  it('the list appears whole in the frame of the first key: not faded in, not eased open', async () => {
    await rig.setTabs(['GitHub - alpha', 'GitHub - beta', 'Hacker News']);
    const page = await open();
    await page.evaluate(`(() => {
      const list = document.getElementById('live-list');
      const seen = new MutationObserver(() => {
        const l = document.getElementById('live-list');
        if (!l || !l.getAttribute('data-for')) return;
        seen.disconnect();
        requestAnimationFrame(() => {
          const ch = new MessageChannel();
          ch.port1.onmessage = () => {
            const section = l.closest('.live');
            const box = document.querySelector('.launcher-body');
            window.firstFrame = {
              opacity: getComputedStyle(section).opacity,
              // The body's scroll fade follows the scroll position (not time): only transitions count there.
              animations: section.getAnimations().length + box.getAnimations().filter((a) => a instanceof CSSTransition).length,
              content: box.firstElementChild.getBoundingClientRect().height,
            };
          };
          ch.port2.postMessage(0);
        });
      });
      seen.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-for'] });
      void list;
    })()`);
    await field(page).press('g');
    // Opaque, and no transition on the body's height (its height may still be capped by the
    // window, which main grows a moment later: the list then scrolls until it has).
    const first = (await seenInPage(page, 'firstFrame')) as { opacity: string; animations: number; content: number };
    expect(first.opacity).toBe('1');
    expect(first.animations).toBe(0);
    expect(first.content).toBeGreaterThan(0);
  });
});
