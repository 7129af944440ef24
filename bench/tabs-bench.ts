// Tab manager bench: search over 300 real tabs (150 + 150 in two windows) in a headful
// Chromium with the companion extension, under Xvfb. Figures only; the target (title/URL search
// under 2 ms in the warm service) is reported as met or not, never asserted.
//   - title/URL search: the match over the warm engine's 300-tab listing, and `exec search_tabs`
//     end to end (which lists the tabs afresh first: tab and page targets, each tab's window);
//   - page text: the index built on the first search (reading each tab's text once), then a
//     query answered from the index;
//   - listing: listTabs, and listTabsInDetail (the extension's view of all 300 tabs added).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Engine } from '../src/engine/engine';
import { createLocalPlanner } from '../src/engine/local-planner';
import { toTabInfos } from '../src/engine/tab-listing';
import { createCdpChromeBackend, type CdpChromeBackend } from '../src/platform/chrome/cdp-backend';
import { loadDeviceId } from '../src/platform/storage/device-id';
import { HistoryFile } from '../src/platform/storage/history-file';
import { PresetFileStore } from '../src/platform/storage/preset-file';
import { TabCollectionFileStore } from '../src/platform/storage/tab-collection-file';
import { TurnFileStore } from '../src/platform/storage/turn-file';
import { UndoFileStore } from '../src/platform/storage/undo-file';
import type { TabInfo } from '../src/protocol/context';
import { startDesktop, type Desktop } from '../tests/support/desktop';
import { cleanUpOnInterrupt, fmtMs, fmtStats, formatTable, machineNote, stats, timeMs, waitForQuietCpu, type Stats } from './stats';
import { TabFixture } from './tab-fixture';

const COMPANION_DIR = path.join(__dirname, '..', 'resources', 'companion-extension');
const WINDOW_SIZES = [150, 150] as const;
const TOTAL_TABS = WINDOW_SIZES[0] + WINDOW_SIZES[1];
const WARMUP = 5;
const N = 50;
const SEARCH_TARGET_MS = 2;
const NO_APPS = { list: async () => [], launch: async () => ({ pid: null }) };
const WORDS = ['espresso', 'lisbon', 'kubernetes', 'violin', 'glacier', 'tapestry', 'quantum', 'marathon', 'origami', 'saffron'];

/** The same match execute's search_tabs makes: every word in title, address or site. */
function match(tabs: readonly TabInfo[], query: string): TabInfo[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return tabs.filter((t) => {
    const hay = `${t.title} ${t.url} ${t.domain}`.toLowerCase();
    return words.every((w) => hay.includes(w));
  });
}

async function sample(n: number, fn: () => Promise<unknown>): Promise<Stats> {
  for (let i = 0; i < WARMUP; i++) await fn();
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(await timeMs(fn));
  return stats(out);
}

export async function run(): Promise<void> {
  console.log(`Tabs bench: ${TOTAL_TABS} tabs (${WINDOW_SIZES.join(' + ')} in 2 windows), headful Chromium with the companion extension under Xvfb`);
  let desk: Desktop | null = null;
  let fixture: TabFixture | null = null;
  let backend: CdpChromeBackend | null = null;
  let configDir: string | null = null;
  let cleaning: Promise<void> | null = null;
  const cleanup = () =>
    (cleaning ??= (async () => {
      await backend?.dispose().catch(() => undefined);
      await fixture?.dispose().catch(() => undefined);
      await desk?.stop();
      if (configDir) await rm(configDir, { recursive: true, force: true });
    })());
  const uninstall = cleanUpOnInterrupt(cleanup);
  try {
    desk = await startDesktop({ extensions: [COMPANION_DIR] });
    const chrome = desk.chrome!;
    configDir = await mkdtemp(path.join(tmpdir(), 'deskpilot-tabs-bench-'));
    fixture = await TabFixture.connect(chrome.browserWsUrl);
    const specs = Array.from({ length: TOTAL_TABS }, (_, i) => {
      const word = WORDS[i % WORDS.length]!;
      const title = `Bench tab ${i + 1} ${word}`;
      const text = `Tab ${i + 1} of the DeskPilot benchmark. ${'Some ordinary page text. '.repeat(40)} The secret word is zq${i + 1}x.`;
      return { title, url: desk!.pages.url('page', { title, text }) };
    });
    await fixture.openInTwoWindows(specs, WINDOW_SIZES[0]);
    await waitForQuietCpu();

    backend = createCdpChromeBackend({ chromeUrl: chrome.browserWsUrl, profileDir: path.join(configDir, 'chrome-profile'), defaultUserDataDirs: [] });
    const b = backend;
    const engine = new Engine({
      chrome: async () => b,
      windows: null,
      apps: NO_APPS,
      presets: new PresetFileStore(path.join(configDir, 'presets.json')),
      tabCollections: new TabCollectionFileStore(path.join(configDir, 'tab-collections.json')),
      undo: new UndoFileStore(path.join(configDir, 'undo.json')),
      history: new HistoryFile(path.join(configDir, 'history.jsonl')),
      deviceId: await loadDeviceId(configDir),
      planners: { local: createLocalPlanner(), llm: null, llmMissingReason: 'not used by this bench' },
      answerer: null,
      turns: new TurnFileStore(path.join(configDir, 'turns.json')),
    });

    // Warm: the connection, the tab→page map, the extension's worker.
    const detail = await b.listTabsInDetail();
    if (detail.tabs.length !== TOTAL_TABS) throw new Error(`expected ${TOTAL_TABS} tabs, DeskPilot lists ${detail.tabs.length}`);
    if (!detail.companion.ok) throw new Error(`the companion extension does not answer: ${detail.companion.message}`);
    const tabs = toTabInfos(detail.tabs);

    let q = 0;
    const nextQuery = () => WORDS[q++ % WORDS.length]!;
    const matchStats = await sample(N, async () => match(tabs, nextQuery()));
    const execStats = await sample(N, async () => {
      const r = await engine.exec({ type: 'search_tabs', query: nextQuery() });
      if (r.status !== 'done') throw new Error(`search_tabs: ${r.status} ${JSON.stringify(r.errors)}`);
    });
    const listStats = await sample(20, () => b.listTabs());
    const detailStats = await sample(20, () => b.listTabsInDetail());

    // Page text: the first search reads every tab's text into the index; later ones use it.
    const ids = detail.tabs.map((t) => t.targetId);
    await waitForQuietCpu();
    const t0 = performance.now();
    const first = await b.searchPageText(ids, 'zq150x');
    const buildMs = performance.now() - t0;
    const built = b.pageTextStats!;
    if (first.size !== 1) throw new Error(`page text search found ${first.size} tabs for a word one page has`);
    const textQuery = await sample(N, () => b.searchPageText(ids, `zq${1 + (q++ % TOTAL_TABS)}x`));

    console.log('');
    console.log(
      formatTable([
        ['measure', 'p50 (p95)', 'note'],
        ['title/URL search: match over the 300-tab listing', fmtStats(matchStats), `target < ${SEARCH_TARGET_MS} ms: ${matchStats.p50 < SEARCH_TARGET_MS ? 'met' : 'NOT met'}`],
        ['title/URL search: exec search_tabs (lists afresh)', fmtStats(execStats), 'warm engine in this process, as in the service'],
        ['listTabs (300 tabs)', fmtStats(listStats), 'what every snapshot pays'],
        ['listTabsInDetail (+ the extension\'s view)', fmtStats(detailStats), 'pinned, muted, group, last use'],
        ['page text: first search (index build)', fmtMs(buildMs), `${built.read} tabs read, ${fmtMs(buildMs / Math.max(1, built.read))} per tab (8 at a time)`],
        ['page text: search answered from the index', fmtStats(textQuery), `${built.entries} tabs indexed, ≤ 100 000 characters each`],
      ]),
    );
    console.log('');
    console.log(`N=${N} (${WARMUP} warm-up) per search measure, 20 per listing. ${machineNote()}`);
  } finally {
    uninstall();
    await cleanup();
  }
}
