import { dialog } from 'electron';
import type { ConsentRequest, PendingConsents } from '../app/sync/remote-consent';
import { withNativeDialog } from './native-dialogs';

// The app's way for this desk's user to answer another device's request to close things here:
// a native question per request, answered with its buttons. The question closes by itself when
// the request ends elsewhere (`deskpilot devices approve|deny` on the socket this app serves,
// or its TTL passing: then nothing runs). Closing it without choosing is a no.
// (macOS: a message box without a parent window cannot be closed from here — Electron's
// `signal` does not reach it — so there it stays until answered; an answer after the TTL
// changes nothing.)

const RUN = 1;

function detail(q: ConsentRequest): string {
  const lines = q.items.map((i) => `• ${i.summary}`);
  const rest = q.plan.filter((p) => !q.items.some((i) => i.summary === p));
  if (rest.length) lines.push('', `Also: ${rest.join('; ')}`);
  if (q.asked_by) lines.push('', `Asked by ${q.asked_by} on "${q.from.name}" (their yes there is not a yes here).`);
  lines.push('', `Unanswered by ${new Date(q.deadline).toLocaleTimeString()}, nothing runs.`);
  return lines.join('\n');
}

/** Shows a dialog for each request `consents` receives; returns a function that stops (and closes any still open). */
export function showConsentDialogs(consents: PendingConsents): () => void {
  const open = new Map<string, AbortController>();
  const offSettle = consents.onSettle((q) => {
    open.get(q.id)?.abort();
    open.delete(q.id);
  });
  const offArrive = consents.onArrive((q) => {
    const closed = new AbortController();
    open.set(q.id, closed);
    void withNativeDialog(() =>
      dialog.showMessageBox({
        type: 'question',
        title: 'DeskPilot',
        message: `"${q.from.name}" asks to do this on "${q.on}"`,
        detail: detail(q),
        buttons: ["Don't run", 'Run'],
        defaultId: 0,
        cancelId: 0,
        noLink: true,
        signal: closed.signal,
      }),
    ).then(
      (r) => {
        if (!closed.signal.aborted) consents.answer(q.id, r.response === RUN);
      },
      () => consents.answer(q.id, false),
    );
  });
  return () => {
    offArrive();
    offSettle();
    for (const c of open.values()) c.abort();
    open.clear();
  };
}
