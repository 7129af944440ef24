import { Redis as RedisExtension } from '@hocuspocus/extension-redis';
import type { afterLoadDocumentPayload, beforeBroadcastStatelessPayload, Document, onAwarenessUpdatePayload, onChangePayload, onStoreDocumentPayload } from '@hocuspocus/server';

// Hocuspocus's Redis extension, made to live through Redis outages. As shipped, with ioredis's
// defaults, a change made while Redis is down queues a PUBLISH that fails after 20 reconnect
// attempts (MaxRetriesPerRequestError); Hocuspocus does not catch the rejection of its onChange
// hooks, so the server process died about 20 s into an outage, and stopping it while Redis was
// down waited for ever on QUIT. Here:
//  - the publishing client does not queue while disconnected (what it would publish is a sync
//    step, and the next exchange carries the same information), so nothing piles up in memory
//    and nothing rejects later; every publish is caught;
//  - the subscribing client queues its (few) SUBSCRIBE commands for as long as it takes, and
//    ioredis resubscribes what it had, so documents keep flowing once Redis is back;
//  - both reconnect for ever, backing off to one attempt a second, and say so in the log;
//  - when Redis is back, each loaded document announces its state (a first sync step), so what
//    changed on either side during the outage reaches the other server processes at once;
//  - the store lock is skipped while Redis is down (each process then stores its own copy,
//    which is what a lock held by nobody would allow), instead of stopping the store;
//  - stopping disconnects at once, without a QUIT that cannot be answered.

export type RedisTarget = { path: string } | { host: string; port: number; password?: string };

type Log = (line: string) => void;

/** Reconnect delays: 100 ms more each attempt, at most one a second. */
const retryDelay = (attempt: number) => Math.min(attempt * 100, 1_000);
/** Attempts worth a line in the log: the first few, then every 25th. */
const logged = (attempt: number) => attempt <= 3 || attempt % 25 === 0;
/** A command to a connected Redis that does not answer in this time fails (and is caught). */
const COMMAND_TIMEOUT_MS = 10_000;

/** The extension's own (TypeScript-private) publishing methods, reached at runtime. */
interface Publishing {
  publishFirstSyncStep(documentName: string, document: Document): Promise<unknown>;
  /** Sends what a document's changes queued in this turn (4.x coalesces publishes per turn). */
  flushPublish(documentName: string): Promise<void>;
  cancelPendingPublish(documentName: string): void;
  pendingPublishes: Map<string, unknown>;
}

/** What is set on each ioredis client after the extension made it (ioredis reads these per command and per attempt). */
interface TunableClient {
  options: { enableOfflineQueue?: boolean; commandTimeout?: number; retryStrategy?: (attempt: number) => number | null };
  on(event: 'error', fn: (e: Error) => void): unknown;
}

export class ResilientRedis extends RedisExtension {
  readonly #log: Log;
  #down = false;

  constructor(target: RedisTarget, log: Log) {
    const where = 'path' in target ? { options: { path: target.path } } : { host: target.host, port: target.port, options: { password: target.password } };
    super({ ...where, options: { ...where.options, maxRetriesPerRequest: null, enableOfflineQueue: true } });
    this.#log = log;
    // The coalesced publish runs on the next turn; its failure is logged here like every other.
    const publishing = this as unknown as Publishing;
    const flush = publishing.flushPublish.bind(this);
    publishing.flushPublish = (documentName) => this.#quietly(flush(documentName));
    this.#tune(this.pub as unknown as TunableClient, 'publish');
    this.#tune(this.sub as unknown as TunableClient, 'subscribe');
    this.sub.on('close', () => {
      if (!this.#down) log('redis connection lost; this server keeps serving its own devices and reconnects');
      this.#down = true;
    });
    this.sub.on('ready', () => {
      if (!this.#down) return;
      this.#down = false;
      log('redis connection back');
      this.#announceAll();
    });
  }

  #tune(client: TunableClient, role: 'publish' | 'subscribe'): void {
    client.options.retryStrategy = (attempt) => {
      if (logged(attempt)) this.#log(`redis (${role}) unreachable: reconnect attempt ${attempt}`);
      return retryDelay(attempt);
    };
    if (role === 'publish') {
      client.options.enableOfflineQueue = false;
      client.options.commandTimeout = COMMAND_TIMEOUT_MS;
    }
    // Without a listener ioredis prints every failed attempt's stack on stderr.
    client.on('error', () => undefined);
  }

  get #connected(): boolean {
    return this.pub.status === 'ready';
  }

  /** Each loaded document's state vector to the other processes: they answer with what we lack, and ask for what they lack. */
  #announceAll(): void {
    const self = this as unknown as Publishing;
    for (const [name, document] of this.instance?.documents ?? []) void self.publishFirstSyncStep(name, document).catch(() => undefined);
  }

  #quietly(p: Promise<unknown>): Promise<void> {
    return p.then(
      () => undefined,
      (e: unknown) => this.#log(`redis: a message to the other server processes was not sent (${e instanceof Error ? e.message : String(e)})`),
    );
  }

  override async afterLoadDocument(data: afterLoadDocumentPayload): Promise<void> {
    const subscribed = this.#quietly(super.afterLoadDocument(data));
    // While Redis is down the SUBSCRIBE waits in the queue; the document is served meanwhile.
    if (this.sub.status === 'ready') await subscribed;
  }

  override async onChange(data: onChangePayload): Promise<void> {
    if (this.#connected) await this.#quietly(super.onChange(data));
  }

  override async onAwarenessUpdate(data: onAwarenessUpdatePayload): Promise<undefined> {
    if (this.#connected) await this.#quietly(super.onAwarenessUpdate(data));
    return undefined;
  }

  /** Resolves with 0 receivers counted: nothing here reads the count. */
  override async beforeBroadcastStateless(data: beforeBroadcastStatelessPayload): Promise<number> {
    if (this.#connected) await this.#quietly(super.beforeBroadcastStateless(data));
    return 0;
  }

  override async onStoreDocument(data: onStoreDocumentPayload): Promise<void> {
    if (!this.#connected) return;
    try {
      await super.onStoreDocument(data);
    } catch (e) {
      // Another process holds the lock: it stores. Redis gone meanwhile: store here.
      if (this.#connected) throw e;
    }
  }

  override async onDestroy(): Promise<void> {
    const publishing = this as unknown as Publishing;
    for (const name of [...publishing.pendingPublishes.keys()]) publishing.cancelPendingPublish(name);
    this.pub.disconnect(false);
    this.sub.disconnect(false);
  }
}
