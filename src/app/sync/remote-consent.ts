import type { ConsentAnswer, ConsentRequest } from '../../protocol/remote-consent';

// How this desk's user answers another device's request to close things here. One port, two
// hosts: the warm service holds the questions and answers them from `deskpilot devices
// approve|deny ID` over its socket; the Electron app shows each one in a native dialog and
// answers with the button pressed. Both go through PendingConsents, so the rules are one:
// a question waits until its deadline (the command's TTL) and then counts as not confirmed;
// an answer to a question that is gone (expired, already answered) changes nothing.

export type { ConsentAnswer, ConsentRequest } from '../../protocol/remote-consent';

export interface RemoteConsent {
  /** Resolves with the user's answer, or 'expired' once `request.deadline` passes unanswered. */
  ask(request: ConsentRequest): Promise<ConsentAnswer>;
}

export interface PendingConsentsOptions {
  clock?: () => number;
}

interface Pending {
  request: ConsentRequest;
  settle: (a: ConsentAnswer) => void;
}

export class PendingConsents implements RemoteConsent {
  private readonly pending = new Map<string, Pending>();
  private readonly arrivals = new Set<(r: ConsentRequest) => void>();
  private readonly settlements = new Set<(r: ConsentRequest, a: ConsentAnswer) => void>();
  private readonly clock: () => number;
  private closed = false;

  constructor(o: PendingConsentsOptions = {}) {
    this.clock = o.clock ?? Date.now;
  }

  ask(request: ConsentRequest): Promise<ConsentAnswer> {
    const wait = Date.parse(request.deadline) - this.clock();
    if (this.closed || !(wait > 0)) return Promise.resolve('expired');
    // A second question with the same id (a row seen twice) is the same question: not asked twice.
    if (this.pending.has(request.id)) return Promise.resolve('expired');
    return new Promise<ConsentAnswer>((resolve) => {
      const timer = setTimeout(() => settle('expired'), wait);
      timer.unref?.();
      const settle = (answer: ConsentAnswer) => {
        if (this.pending.get(request.id)?.settle !== settle) return;
        clearTimeout(timer);
        this.pending.delete(request.id);
        for (const fn of this.settlements) fn(request, answer);
        resolve(answer);
      };
      this.pending.set(request.id, { request, settle });
      for (const fn of this.arrivals) fn(request);
    });
  }

  /** The questions waiting for an answer, oldest first. */
  list(): ConsentRequest[] {
    return [...this.pending.values()].map((p) => p.request);
  }

  /** Answers a waiting question; false when there is none with that id (unknown, answered, expired). */
  answer(id: string, yes: boolean): boolean {
    const p = this.pending.get(id);
    if (!p) return false;
    p.settle(yes ? 'yes' : 'no');
    return true;
  }

  /** Called with each new question (the app shows a dialog; the service logs it). */
  onArrive(fn: (r: ConsentRequest) => void): () => void {
    this.arrivals.add(fn);
    return () => this.arrivals.delete(fn);
  }

  /** Called when a question leaves (answered anywhere, or expired): a dialog still open for it closes. */
  onSettle(fn: (r: ConsentRequest, a: ConsentAnswer) => void): () => void {
    this.settlements.add(fn);
    return () => this.settlements.delete(fn);
  }

  /** The host is stopping: every waiting question counts as not confirmed, and new ones are not asked. */
  close(): void {
    this.closed = true;
    for (const p of [...this.pending.values()]) p.settle('expired');
  }
}

/** Logs each question as it arrives (with how to answer it) and how it ended: the warm service's log. */
export function logConsents(consents: PendingConsents, log: (line: string) => void): () => void {
  const offArrive = consents.onArrive((q) => {
    const what = q.items.map((i) => i.summary).join('; ');
    log(
      `sync: "${q.from.name}" asks to ${what} on this desk${q.asked_by ? ` (asked by ${q.asked_by} there)` : ''}; ` +
        `answer with \`deskpilot devices approve ${q.id}\` or \`deskpilot devices deny ${q.id}\` before ${q.deadline}`,
    );
  });
  const offSettle = consents.onSettle((q, a) => {
    log(`sync: request ${q.id} from "${q.from.name}": ${a === 'yes' ? 'approved; running it' : a === 'no' ? 'denied; not run' : 'not answered in time; not run'}`);
  });
  return () => (offArrive(), offSettle());
}
