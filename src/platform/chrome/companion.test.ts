import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { CdpConnection } from './cdp-connection';
import { COMPANION_ID, CompanionLink } from './companion';

// Finding the companion extension's worker, against a scripted fake browser: the orderings a
// quiet machine rarely shows. The real thing is covered in tests/tabs/.

const SCOPE = `chrome-extension://${COMPANION_ID}/`;

/** A browser whose extension worker is stopped; `listLate`: it lists registrations only after enable has answered. */
class FakeBrowser extends EventEmitter implements CdpConnection {
  worker = false;
  calls: string[] = [];
  constructor(
    private readonly installed: boolean,
    private readonly listLate: boolean,
  ) {
    super();
  }

  async send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<unknown> {
    this.calls.push(method);
    switch (method) {
      case 'Target.getTargets': {
        const type = (params.filter as Array<{ type: string }>)[0]!.type;
        if (type === 'page') return { targetInfos: [{ targetId: 'P1', type: 'page', url: 'https://a.example/', title: 'A' }] };
        return { targetInfos: this.worker ? [{ targetId: 'W1', type: 'service_worker', url: `${SCOPE}worker.js`, title: '' }] : [] };
      }
      case 'Target.attachToTarget':
        return { sessionId: `S-${params.targetId as string}` };
      case 'ServiceWorker.enable': {
        const list = () => this.emit(`ServiceWorker.workerRegistrationUpdated.${sessionId}`, { registrations: this.installed ? [{ scopeURL: SCOPE, isDeleted: false }] : [] });
        if (this.listLate) setTimeout(list, 20);
        else list();
        return {};
      }
      case 'ServiceWorker.startWorker':
        setTimeout(() => (this.worker = true), 10);
        return {};
      default:
        return {};
    }
  }

  async close(): Promise<void> {}
}

describe('CompanionLink against a scripted fake browser', () => {
  it('finds an installed extension whose registrations Chrome lists only after enable has answered (a busy browser)', async () => {
    const browser = new FakeBrowser(true, true);
    const status = await new CompanionLink(browser, 'how to add it').status();
    expect(status.ok).toBe(true);
    expect(browser.calls).toContain('ServiceWorker.startWorker');
    expect(browser.calls).toContain('Runtime.runIfWaitingForDebugger');
  });

  it('says how to add it when the list has no such registration, and does not look again at once', async () => {
    const browser = new FakeBrowser(false, true);
    const link = new CompanionLink(browser, 'how to add it');
    expect(await link.status()).toEqual({ ok: false, message: 'how to add it' });
    const asked = browser.calls.length;
    expect((await link.status()).ok).toBe(false);
    expect(browser.calls.length).toBe(asked);
    // Asked afresh (chrome status), it looks again.
    expect((await link.status(true)).ok).toBe(false);
    expect(browser.calls.length).toBeGreaterThan(asked);
  });
});

describe('the companion extension folder', () => {
  it("is found, and its manifest's key gives the id DeskPilot looks for", async () => {
    const { readFileSync } = await import('node:fs');
    const { createHash } = await import('node:crypto');
    const path = await import('node:path');
    const { companionExtensionDir } = await import('./companion');
    const dir = companionExtensionDir()!;
    const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { key: string; permissions: string[]; content_scripts?: unknown; host_permissions?: unknown };
    // Chrome's rule: the first 32 hex digits of the key's SHA-256, each as a letter a–p.
    const hex = createHash('sha256').update(Buffer.from(manifest.key, 'base64')).digest('hex').slice(0, 32);
    expect([...hex].map((c) => String.fromCharCode(97 + parseInt(c, 16))).join('')).toBe(COMPANION_ID);
    expect(manifest.permissions).toEqual(['tabs', 'tabGroups']);
    expect(manifest.content_scripts).toBeUndefined();
    expect(manifest.host_permissions).toBeUndefined();
  });
});
