// Real-page bench: DeskPilot's agent snapshot against Playwright's aria snapshot on the saved real
// pages in ../shared/real-pages (news and blog pages from Mozilla Readability's test set, app-like
// pages from the Postlight Parser fixtures; see SOURCES.md there — used from there, never copied).
// Per page, in one run on the same tab of a real headful Chromium: snapshot time (median of 5, after
// a warm-up), tokens (gpt-tokenizer, o200k_base), and recall of the elements a person needs for a
// task on that page (bench/real-pages/labels.json), counted for the labels whose element is visible
// within DeskPilot's range (the viewport and two more screens). Figures only: nothing is asserted.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { encode } from 'gpt-tokenizer';
import { chromium, type Browser, type Page } from 'playwright-core';
import { z } from 'zod';
import { AGENT_DEFAULTS } from '../src/engine/agent';
import { createCdpAgentBrowser, type CdpAgentBrowser } from '../src/platform/chrome/agent';
import { startDesktop, type Desktop } from '../tests/support/desktop';
import { REAL_PAGES_DIR, realPages, serveRealPages, type RealPageServer } from './real-pages/serve';
import { cleanUpOnInterrupt, fmtMs, formatTable, machineNote, sleep } from './stats';

const RUNS = 9;
const LABELS_FILE = path.join(__dirname, 'real-pages', 'labels.json');

const Kind = z.enum(['link', 'button', 'textbox', 'checkbox', 'select']);
type Kind = z.infer<typeof Kind>;
const Need = z.strictObject({ kind: Kind, name: z.string().min(1), selector: z.string().min(1).optional() });
type Need = z.infer<typeof Need>;
const Labels = z.object({ pages: z.record(z.string(), z.strictObject({ task: z.string().min(1), needs: z.array(Need).min(1) })) });

function loadLabels(): z.infer<typeof Labels> {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(LABELS_FILE, 'utf8'));
  } catch (e) {
    throw new Error(`${LABELS_FILE}: cannot read it as JSON (${e instanceof Error ? e.message : String(e)})`, { cause: e });
  }
  const parsed = Labels.safeParse(raw);
  if (!parsed.success) throw new Error(`${LABELS_FILE}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

// ---- matching a label in each snapshot ----

const norm = (s: string) => s.replace(/&quot;/g, '"').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/\s+/g, ' ').toLowerCase();

/** DeskPilot lines: `<tag id="N" type=… label=… placeholder=… value=… href=…>text</tag>`. */
function deskpilotKind(line: string): Kind | 'other' {
  const tag = /^\*?<([a-z0-9-]+) /.exec(line)?.[1] ?? '';
  const role = / role="([^"]*)"/.exec(line)?.[1] ?? '';
  const type = / type="([^"]*)"/.exec(line)?.[1] ?? '';
  if (role === 'link' || (tag === 'a' && !role)) return 'link';
  if (role === 'checkbox' || role === 'switch' || (tag === 'input' && (type === 'checkbox' || type === 'radio'))) return 'checkbox';
  if (tag === 'select' || role === 'listbox') return 'select';
  if (['textbox', 'searchbox', 'combobox'].includes(role) || tag === 'textarea' || (tag === 'input' && !['submit', 'button', 'reset', 'image', 'file'].includes(type))) return 'textbox';
  return 'button';
}

/**
 * Whether an element of kind `got` serves for a label of kind `want`: links and buttons are one
 * thing to a person (a "Log In" link styled and marked as a button is still the sign-in link), and a
 * select may be an ARIA combobox.
 */
function sameKind(got: Kind | 'other', want: Kind): boolean {
  const clickable = (k: Kind | 'other') => k === 'link' || k === 'button';
  return got === want || (clickable(got) && clickable(want)) || (want === 'select' && got === 'textbox');
}

function inDeskpilot(text: string, need: Need): boolean {
  const want = need.name.toLowerCase();
  return text.split('\n').some((l) => {
    if (!/^\*?<[a-z0-9-]+ id="\d+"/.test(l)) return false;
    if (!sameKind(deskpilotKind(l), need.kind)) return false;
    return norm(l.replace(/ (id|type|href|role)="[^"]*"/g, '').replace(/^\*?<[a-z0-9-]+/, '')).includes(want);
  });
}

const PW_ROLES: Record<Kind, string[]> = {
  link: ['link', 'button', 'menuitem', 'tab'],
  button: ['button', 'link', 'menuitem', 'tab', 'switch'],
  textbox: ['textbox', 'searchbox', 'combobox'],
  checkbox: ['checkbox', 'switch', 'radio'],
  select: ['combobox', 'listbox'],
};

/** Playwright lines: `- role "name" [attrs]:` with the name in JSON string syntax. */
function inPlaywright(aria: string, need: Need): boolean {
  const want = need.name.toLowerCase();
  return aria.split('\n').some((l) => {
    const m = /^\s*- ([a-z]+)(?: "((?:[^"\\]|\\.)*)")?/.exec(l);
    if (!m || !PW_ROLES[need.kind].includes(m[1]!)) return false;
    return norm(m[2] ?? '').includes(want);
  });
}

// ---- where a label's element is ----

/**
 * In the page: where the label's element is — 'in' (visible within `screens` screens from the top,
 * and a click at it reaches it), 'covered' (visible there, but another element is on top of it),
 * 'out' (further down, or not visible), 'absent' or 'bad selector'. Scrolls to hit-test an element
 * below the fold and back to the top.
 */
const LOCATE = `(([kind, name, selector, screens]) => {
  const SEL = { link: 'a[href], [role=link]', button: 'button, input[type=submit], input[type=button], input[type=image], input[type=reset], summary, [role=button], [role=tab], [role=menuitem]',
    textbox: 'input:not([type]), input[type=text], input[type=search], input[type=email], input[type=url], input[type=tel], input[type=password], input[type=number], textarea, [role=textbox], [role=searchbox], [role=combobox], [contenteditable]',
    checkbox: 'input[type=checkbox], input[type=radio], [role=checkbox], [role=switch]', select: 'select, [role=listbox], [role=combobox]' };
  const want = name.toLowerCase();
  const named = (el) => [el.getAttribute('aria-label'), el.innerText, el.value, el.getAttribute('placeholder'), el.getAttribute('title'), el.getAttribute('alt')]
    .some((s) => s && s.replace(/\\s+/g, ' ').toLowerCase().includes(want));
  let els;
  try { els = [...document.querySelectorAll(selector || SEL[kind])]; } catch { return 'bad selector'; }
  if (!selector) els = els.filter(named);
  if (!els.length) return 'absent';
  const limit = innerHeight * screens;
  const visible = els.filter((el) => { const r = el.getBoundingClientRect(); return r.width > 1 && r.height > 1 && r.top < limit && r.bottom > 0 && el.checkVisibility({ visibilityProperty: true, opacityProperty: true }); });
  if (!visible.length) return 'out';
  const reached = (el) => {
    let r = el.getBoundingClientRect();
    if (r.bottom > innerHeight) { scrollTo(0, Math.max(0, r.top - 100)); r = el.getBoundingClientRect(); }
    const t = Math.max(r.top, 0), b = Math.min(r.bottom, innerHeight);
    const pts = [[(r.left + r.right) / 2, (t + b) / 2], [r.left + r.width * 0.25, t + (b - t) * 0.3], [r.left + r.width * 0.75, t + (b - t) * 0.7]];
    const ok = pts.some(([x, y]) => { const h = document.elementFromPoint(x, y); return !!h && (h === el || el.contains(h) || (el.labels && [...el.labels].some((l) => l === h || l.contains(h)))); });
    scrollTo(0, 0);
    return ok;
  };
  return visible.some(reached) ? 'in' : 'covered';
})`;

interface PageRow {
  page: string;
  dpMs: number;
  pwMs: number;
  dpTokens: number;
  pwTokens: number;
  htmlTokens: number;
  dpElements: number;
  truncated: boolean;
  inRange: number;
  dpFound: number;
  pwFound: number;
  /** Labelled elements in range but under another element: [DeskPilot found, Playwright found, of]. */
  covered: [number, number, number];
  missedByDp: string[];
  notCounted: string[];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function playwrightPage(pw: Browser, url: string): Promise<Page> {
  for (let i = 0; i < 200; i++) {
    for (const ctx of pw.contexts()) for (const p of ctx.pages()) if (p.url() === url) return p;
    await sleep(25);
  }
  throw new Error(`Playwright never saw the tab ${url}`);
}

async function measurePage(agent: CdpAgentBrowser, pw: Browser, server: RealPageServer, page: string, needs: Need[]): Promise<PageRow> {
  const url = server.url(page);
  const { targetId } = await agent.openTab(url);
  try {
    const pwPage = await playwrightPage(pw, url);
    const opts = { maxChars: AGENT_DEFAULTS.snapshotChars, maskPii: true };
    const body = pwPage.locator('body');
    // Warm-up: both sides install their scripts and see the page once.
    await agent.snapshot(targetId, opts);
    await body.ariaSnapshot();
    const dpTimes: number[] = [];
    const pwTimes: number[] = [];
    let dp = await agent.snapshot(targetId, opts);
    let aria = '';
    for (let i = 0; i < RUNS; i++) {
      let t0 = performance.now();
      dp = await agent.snapshot(targetId, opts);
      dpTimes.push(performance.now() - t0);
      t0 = performance.now();
      aria = await body.ariaSnapshot();
      pwTimes.push(performance.now() - t0);
    }
    const html = readFileSync(path.join(REAL_PAGES_DIR, page), 'utf8');
    const row: PageRow = {
      page,
      dpMs: median(dpTimes),
      pwMs: median(pwTimes),
      dpTokens: encode(dp.text).length,
      pwTokens: encode(aria).length,
      htmlTokens: encode(html).length,
      dpElements: dp.elementCount,
      truncated: dp.truncated,
      inRange: 0,
      dpFound: 0,
      pwFound: 0,
      covered: [0, 0, 0],
      missedByDp: [],
      notCounted: [],
    };
    for (const need of needs) {
      const where = await pwPage.evaluate(`${LOCATE}(${JSON.stringify([need.kind, need.name, need.selector ?? '', 3])})`);
      if (where === 'covered') {
        row.covered[2]++;
        if (inDeskpilot(dp.text, need)) row.covered[0]++;
        if (inPlaywright(aria, need)) row.covered[1]++;
        row.notCounted.push(`${need.kind} "${need.name}" (covered by another element)`);
        continue;
      }
      if (where !== 'in') {
        row.notCounted.push(`${need.kind} "${need.name}" (${where === 'out' ? 'beyond the range' : where})`);
        continue;
      }
      row.inRange++;
      if (inDeskpilot(dp.text, need)) row.dpFound++;
      else row.missedByDp.push(`${need.kind} "${need.name}"`);
      if (inPlaywright(aria, need)) row.pwFound++;
    }
    return row;
  } finally {
    await agent.closeTab(targetId).catch(() => undefined);
  }
}

const pct = (a: number, b: number) => (b === 0 ? '—' : `${((100 * a) / b).toFixed(1)}%`);

export async function run(): Promise<void> {
  const pages = realPages();
  if (pages.length === 0) {
    console.log(`real-pages: skipped — the saved pages are not there (${REAL_PAGES_DIR}; they live in ../shared/real-pages beside the repo).`);
    return;
  }
  const labels = loadLabels();
  const unlabelled = pages.filter((p) => !labels.pages[p]);
  let desk: Desktop | null = null;
  let server: RealPageServer | null = null;
  let agent: CdpAgentBrowser | null = null;
  let pw: Browser | null = null;
  let cleaning: Promise<void> | null = null;
  const cleanup = () =>
    (cleaning ??= (async () => {
      await pw?.close().catch(() => undefined);
      await agent?.dispose().catch(() => undefined);
      await server?.stop().catch(() => undefined);
      await desk?.stop();
    })());
  const uninstall = cleanUpOnInterrupt(cleanup);
  const started = performance.now();
  try {
    desk = await startDesktop();
    server = await serveRealPages();
    agent = createCdpAgentBrowser({ browserWsUrl: desk.chrome!.browserWsUrl, loadTimeoutMs: 60_000, evalTimeoutMs: 30_000 });
    pw = await chromium.connectOverCDP(desk.chrome!.browserWsUrl);
    const rows: PageRow[] = [];
    for (const page of pages) {
      const entry = labels.pages[page];
      if (!entry) continue;
      rows.push(await measurePage(agent, pw, server, page, entry.needs));
    }

    const table: string[][] = [['page', 'DeskPilot', 'Playwright', 'speed-up', 'tokens DP', 'tokens PW', 'tokens HTML', 'needs in range', 'found DP', 'found PW']];
    for (const r of rows) {
      table.push([
        r.page,
        fmtMs(r.dpMs),
        fmtMs(r.pwMs),
        `${(r.pwMs / r.dpMs).toFixed(1)}x`,
        `${r.dpTokens}${r.truncated ? ' (cut)' : ''}`,
        `${r.pwTokens}`,
        `${r.htmlTokens}`,
        `${r.inRange}`,
        `${r.dpFound}`,
        `${r.pwFound}`,
      ]);
    }
    const sum = (f: (r: PageRow) => number) => rows.reduce((a, r) => a + f(r), 0);
    const inRange = sum((r) => r.inRange);
    table.push([
      `total (${rows.length} pages)`,
      fmtMs(sum((r) => r.dpMs)),
      fmtMs(sum((r) => r.pwMs)),
      `median ${median(rows.map((r) => r.pwMs / r.dpMs)).toFixed(1)}x`,
      `${sum((r) => r.dpTokens)}`,
      `${sum((r) => r.pwTokens)}`,
      `${sum((r) => r.htmlTokens)}`,
      `${inRange}`,
      `${sum((r) => r.dpFound)} (${pct(sum((r) => r.dpFound), inRange)})`,
      `${sum((r) => r.pwFound)} (${pct(sum((r) => r.pwFound), inRange)})`,
    ]);
    console.log(formatTable(table));

    const slower = rows.filter((r) => r.dpMs >= r.pwMs).map((r) => r.page);
    const larger = rows.filter((r) => r.dpTokens >= r.pwTokens).map((r) => r.page);
    const recall = sum((r) => r.dpFound) / Math.max(1, inRange);
    console.log(
      [
        '',
        `targets: recall ≥ 98% of the labelled elements in range: ${recall >= 0.98 ? 'met' : 'NOT met'} (${pct(sum((r) => r.dpFound), inRange)}); ` +
          `faster than Playwright on every page: ${slower.length === 0 ? 'met' : `NOT met (${slower.join(', ')})`}; ` +
          `smaller on every page: ${larger.length === 0 ? 'met' : `NOT met (${larger.join(', ')})`}.`,
        `Labelled elements in range but covered by another element (not counted above; a click there lands on the cover): ${sum((r) => r.covered[2])}, ` +
          `listed by DeskPilot ${sum((r) => r.covered[0])}, by Playwright ${sum((r) => r.covered[1])}.`,
        ...rows.filter((r) => r.missedByDp.length).map((r) => `missed by DeskPilot on ${r.page}: ${r.missedByDp.join(', ')}`),
        ...rows.filter((r) => r.notCounted.length).map((r) => `not counted on ${r.page}: ${r.notCounted.join(', ')}`),
        ...(unlabelled.length ? [`pages without labels (not measured): ${unlabelled.join(', ')}`] : []),
        `\nPages served from 127.0.0.1 with scripts and other hosts blocked (CSP): the saved DOM as it was. DeskPilot: agent snapshot with the ` +
          `default budget (${AGENT_DEFAULTS.snapshotChars} characters), CDP round trips included; Playwright ${readPlaywrightVersion()}: ` +
          `locator('body').ariaSnapshot() over connectOverCDP to the same tab. Medians of ${RUNS} after a warm-up. Tokens: gpt-tokenizer (o200k_base).`,
        `${machineNote()}; ran ${((performance.now() - started) / 1000).toFixed(0)} s.`,
      ].join('\n'),
    );
  } finally {
    uninstall();
    await cleanup();
  }
}

function readPlaywrightVersion(): string {
  try {
    return (JSON.parse(readFileSync(require.resolve('playwright-core/package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '(version unknown)';
  }
}
