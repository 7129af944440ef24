import type OpenAI from 'openai';

// What the SDK does not tell when a call fails: the connections it retried after a drop (its
// final error may then be our own deadline), and the raw body it could not parse as JSON.
// A per-call copy of the client whose fetch records both.

export interface ResponseMeta {
  status?: number;
  contentType?: string | null;
}

export interface Exchange {
  client: OpenAI;
  /** Errors of the attempts whose fetch failed (the SDK retried them, or gave up). */
  failures: unknown[];
  /** The last response's status and content type. */
  meta: ResponseMeta;
  /** The last successful JSON response's body as it came, for an excerpt when it is no JSON after all. */
  body: string | null;
}

const isJsonType = (type: string | null) => /^application\/([\w.+-]*\+)?json\b/i.test((type ?? '').trim());

export function recordExchange(client: OpenAI): Exchange {
  const x: Exchange = { client, failures: [], meta: {}, body: null };
  x.client = client.withOptions({
    // The clients are made without a fetch of their own (llm-options.ts): the global one is theirs.
    fetch: async (url, init) => {
      try {
        const response = await globalThis.fetch(url, init);
        const contentType = response.headers.get('content-type');
        x.meta = { status: response.status, contentType };
        if (!response.ok || !isJsonType(contentType)) return response;
        // Read here (a cut-off body is then a failed attempt, which the SDK retries) and handed
        // on as the same response, already decoded.
        const text = await response.text();
        x.body = text;
        const headers = new Headers(response.headers);
        headers.delete('content-encoding');
        headers.delete('content-length');
        return new Response(text, { status: response.status, statusText: response.statusText, headers });
      } catch (e) {
        x.failures.push(e);
        throw e;
      }
    },
  });
  return x;
}
