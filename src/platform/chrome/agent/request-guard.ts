import type { Protocol } from 'devtools-protocol';
import { refusalMessage, type DevtoolsGuard, type Refusal } from '../devtools-guard';

// The agent's tabs are driven by a model that reads pages, so a page must not get one of them
// (or one of its frames) to load the browser's DevTools endpoint — not by a link, a redirect,
// location.href, a form or an <iframe>. Every agent session pauses its document requests, and
// any request at all to an endpoint port, and fails those the guard refuses before they are sent.

/** What each agent session hands the Fetch domain to pause. */
export function guardedRequestPatterns(guard: DevtoolsGuard): Protocol.Fetch.RequestPattern[] {
  const stage = 'Request' as const;
  const ports = guard.ports;
  // An endpoint on a default port has no ":port" in its URLs to match on.
  if (ports.includes(80) || ports.includes(443)) return [{ urlPattern: '*', requestStage: stage }];
  return [{ urlPattern: '*', resourceType: 'Document', requestStage: stage }, ...ports.map((p) => ({ urlPattern: `*:${p}/*`, requestStage: stage }))];
}

export interface PausedAnswer {
  refusal: Refusal | null;
  /** The request goes on (continueRequest) or is failed as blocked (failRequest). */
  method: 'Fetch.continueRequest' | 'Fetch.failRequest';
  params: Protocol.Fetch.ContinueRequestRequest | Protocol.Fetch.FailRequestRequest;
}

export async function answerPaused(guard: DevtoolsGuard, p: Protocol.Fetch.RequestPausedEvent): Promise<PausedAnswer> {
  const refusal = await guard.refusal(p.request.url);
  return refusal
    ? { refusal, method: 'Fetch.failRequest', params: { requestId: p.requestId, errorReason: 'BlockedByClient' } }
    : { refusal, method: 'Fetch.continueRequest', params: { requestId: p.requestId } };
}

/** What the model is told when a page tried it. */
export const blockedNotice = (r: Refusal) => `The page tried to load a DevTools endpoint and DeskPilot stopped it (${refusalMessage(r)}).`;

const DEVTOOLS_SOCKET = /\bwss?:\/\/[^\s"'<>]+\/devtools\/(?:browser|page|worker|shared_worker|service_worker|iframe|other)\/[^\s"'<>]*/gi;
const FRONTEND_SOCKET = /([?&]wss?=)[^\s"'<>&]*\/devtools\/[^\s"'<>&]*/gi;
/** Chromium's target ids: 32 upper-case hex digits (what /json/list and /json/close/<id> carry). */
const TARGET_ID = /\b[0-9A-F]{32}\b/g;

/**
 * Never hands the model a DevTools websocket address (whoever has one controls that tab) nor a
 * tab's target id (with it, a page that reaches the endpoint can close or drive that tab): text
 * about DevTools stays readable, only the addresses and ids are replaced.
 */
export function withoutDevtoolsSockets(text: string): string {
  const out = /devtools/i.test(text) ? text.replace(DEVTOOLS_SOCKET, '[DevTools websocket address removed]').replace(FRONTEND_SOCKET, '$1[removed]') : text;
  return out.replace(TARGET_ID, '[tab id removed]');
}
