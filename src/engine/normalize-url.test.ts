import { describe, expect, it } from 'vitest';
import { domainOf, normalizeUrl } from './normalize-url';

function accepted(input: string) {
  const result = normalizeUrl(input);
  if (!result.ok) throw new Error(`expected ${JSON.stringify(input)} to be accepted, got: ${result.reason}`);
  return result;
}

function refused(input: string): string {
  const result = normalizeUrl(input);
  if (result.ok) throw new Error(`expected ${JSON.stringify(input)} to be refused, got ${result.url}`);
  return result.reason;
}

describe('normalizeUrl: empty and oversized input', () => {
  it.each(['', '   ', '\t\n', '\u00a0'])('refuses empty input %j', (input) => {
    expect(refused(input)).toBe('is empty');
  });

  it('refuses input longer than 8192 characters', () => {
    expect(refused(`https://example.com/${'a'.repeat(8192)}`)).toMatch(/longer than 8192/);
  });

  it('accepts a URL of exactly 8192 characters', () => {
    const prefix = 'https://example.com/';
    const input = prefix + 'a'.repeat(8192 - prefix.length);
    expect(accepted(input).url).toBe(input);
  });

  it('refuses when percent-encoding pushes the URL past the limit', () => {
    expect(refused(`https://example.com/${'é'.repeat(3000)}`)).toMatch(/longer than 8192/);
  });
});

describe('normalizeUrl: explicit http and https URLs', () => {
  it.each([
    ['https://github.com', 'https://github.com/', 'github.com'],
    ['http://example.com/a?b=1#c', 'http://example.com/a?b=1#c', 'example.com'],
    ['HTTPS://GitHub.COM/Foo/Bar', 'https://github.com/Foo/Bar', 'github.com'],
    ['  https://old.reddit.com/r/typescript  ', 'https://old.reddit.com/r/typescript', 'reddit.com'],
    ['https://www.bbc.co.uk/news', 'https://www.bbc.co.uk/news', 'bbc.co.uk'],
    ['https://localhost', 'https://localhost/', 'localhost'],
    ['http://localhost:3000/x', 'http://localhost:3000/x', 'localhost'],
    ['http://[::1]:3000/', 'http://[::1]:3000/', '[::1]'],
    ['https://10.0.0.1:8443', 'https://10.0.0.1:8443/', '10.0.0.1'],
    ['http://0x7f.1', 'http://127.0.0.1/', '127.0.0.1'],
    ['https:github.com', 'https://github.com/', 'github.com'],
    ['https://example.com/a b', 'https://example.com/a%20b', 'example.com'],
    ['https://münchen.de/', 'https://xn--mnchen-3ya.de/', 'xn--mnchen-3ya.de'],
  ])('keeps %j', (input, url, domain) => {
    expect(normalizeUrl(input)).toEqual({ ok: true, url, domain });
  });

  it('keeps an explicit http scheme rather than upgrading it', () => {
    expect(accepted('http://github.com').url).toBe('http://github.com/');
  });

  it.each(['https://', 'http://', 'https://exa mple.com', 'https://example.com:99999', 'https://[::1'])(
    'refuses the malformed URL %j',
    (input) => {
      expect(refused(input)).toBe('is not a valid web address');
    },
  );

  it.each(['https://foo.notatld', 'http://intranet', 'https://printer.local/status'])(
    'refuses %j whose host has no known top-level domain',
    (input) => {
      expect(refused(input)).toBe('has no known top-level domain');
    },
  );

  it('refuses a bare public suffix as a host', () => {
    expect(refused('https://co.uk')).toBe('is not a web address or known site name');
  });

  it('allows about:blank, case-insensitively', () => {
    expect(normalizeUrl('about:blank')).toEqual({ ok: true, url: 'about:blank', domain: '' });
    expect(normalizeUrl(' ABOUT:BLANK ')).toEqual({ ok: true, url: 'about:blank', domain: '' });
  });
});

describe('normalizeUrl: other schemes are refused', () => {
  it.each([
    ['javascript:alert(1)', 'javascript'],
    ['JaVaScRiPt:alert(1)', 'javascript'],
    ['  javascript:alert(1)  ', 'javascript'],
    ['\njavascript:alert(1)', 'javascript'],
    ['java\tscript:alert(1)', 'javascript'],
    ['java\nscr\ript:alert(1)', 'javascript'],
    ['data:text/html,<script>alert(1)</script>', 'data'],
    ['DATA:text/html;base64,PHNjcmlwdD4=', 'data'],
    ['file:///etc/passwd', 'file'],
    ['chrome://settings', 'chrome'],
    ['chrome-extension://abc/page.html', 'chrome-extension'],
    ['vbscript:msgbox(1)', 'vbscript'],
    ['blob:https://example.com/uuid', 'blob'],
    ['ftp://ftp.example.com/file', 'ftp'],
    ['view-source:https://example.com', 'view-source'],
    ['about:config', 'about'],
    ['about:blank#x', 'about'],
    ['mailto:someone@example.com', 'mailto'],
    ['intent://scan/#Intent;scheme=zxing;end', 'intent'],
  ])('refuses %j as the %s: scheme', (input, scheme) => {
    const reason = refused(input);
    expect(reason).toBe(`uses the "${scheme}:" scheme; only http and https web addresses can be opened`);
  });

  it.each([
    '%6Aavascript:alert(1)',
    'javascript%3Aalert(1)',
    '%6A%61%76%61%73%63%72%69%70%74%3Aalert(1)',
    'https:javascript:alert(1)',
    'http://javascript:alert(1)',
    'javascript.:alert(1)',
    'github.com:javascript:alert(1)',
  ])('does not let encoding or a fake host:port smuggle a scheme: %j', (input) => {
    expect(refused(input)).toBe('is not a valid web address');
  });

  it.each(['javascript:alert(1)//github.com', 'x:alert(1)', 'jav&#x09;ascript:alert(1)', 'user:pass@evil.com'])(
    'refuses the hostile %j',
    (input) => {
      expect(normalizeUrl(input).ok).toBe(false);
    },
  );

  it('reports the host a backslash trick really opens', () => {
    expect(accepted('https://evil.com\\@github.com')).toEqual({
      ok: true,
      url: 'https://evil.com/@github.com',
      domain: 'evil.com',
    });
  });
});

describe('normalizeUrl: credentials and hidden characters', () => {
  it.each([
    'https://user:pass@evil.com',
    'https://user@evil.com',
    'http://:pass@evil.com',
    'github.com@evil.com',
    'user@evil.com/login',
    'https://github.com%40evil.com@evil.com',
  ])('refuses %j because it carries credentials', (input) => {
    expect(refused(input)).toBe('contains a user name or password');
  });

  it.each([
    'https://git\nhub.com',
    'https://github.com/\tpath',
    'github\r.com',
    'https://github.com/\u0000',
    '\u0000javascript:alert(1)',
    'https://example.com/\u007f',
    'https://example.com/\u0085',
    'https://gith\u200bub.com',
    'https://example.com/\u202egnp.exe',
    'exa\u00admple.com',
  ])('refuses %j, which contains control or invisible characters', (input) => {
    expect(refused(input)).toBe('contains control or invisible characters');
  });
});

describe('normalizeUrl: local addresses get http://', () => {
  it.each([
    ['localhost', 'http://localhost/', 'localhost'],
    ['LOCALHOST', 'http://localhost/', 'localhost'],
    ['localhost:3000', 'http://localhost:3000/', 'localhost'],
    ['localhost:3000/path?q=1', 'http://localhost:3000/path?q=1', 'localhost'],
    ['localhost:443', 'http://localhost:443/', 'localhost'],
    ['app.localhost:5173', 'http://app.localhost:5173/', 'app.localhost'],
    ['127.0.0.1:8080', 'http://127.0.0.1:8080/', '127.0.0.1'],
    ['127.0.0.1', 'http://127.0.0.1/', '127.0.0.1'],
    ['[::1]:3000', 'http://[::1]:3000/', '[::1]'],
    ['[::1]', 'http://[::1]/', '[::1]'],
    ['192.168.1.10', 'http://192.168.1.10/', '192.168.1.10'],
    ['192.168.1.10/admin', 'http://192.168.1.10/admin', '192.168.1.10'],
  ])('%j -> %s', (input, url, domain) => {
    expect(normalizeUrl(input)).toEqual({ ok: true, url, domain });
  });

  it('refuses localhost with a non-numeric port', () => {
    expect(refused('localhost:abc')).toBe('is not a valid web address');
  });
});

describe('normalizeUrl: bare hosts get https://', () => {
  it.each([
    ['github.com', 'https://github.com/', 'github.com'],
    ['GitHub.com', 'https://github.com/', 'github.com'],
    ['news.ycombinator.com/item?id=1', 'https://news.ycombinator.com/item?id=1', 'ycombinator.com'],
    ['www.bbc.co.uk', 'https://www.bbc.co.uk/', 'bbc.co.uk'],
    ['example.com:8080/x', 'https://example.com:8080/x', 'example.com'],
    ['github.com/search?q=a b', 'https://github.com/search?q=a%20b', 'github.com'],
    ['münchen.de', 'https://xn--mnchen-3ya.de/', 'xn--mnchen-3ya.de'],
    ['пример.рф', 'https://xn--e1afmkfd.xn--p1ai/', 'xn--e1afmkfd.xn--p1ai'],
    ['user.github.io', 'https://user.github.io/', 'github.io'],
  ])('%j -> %s', (input, url, domain) => {
    expect(normalizeUrl(input)).toEqual({ ok: true, url, domain });
  });

  it.each(['foo.notatld', 'server.internal', 'router.lan/admin'])(
    'refuses %j, which has no known top-level domain',
    (input) => {
      expect(refused(input)).toBe('has no known top-level domain');
    },
  );

  it.each(['/etc/passwd', '\\\\server\\share', '//evil.com'])('refuses the path-like %j', (input) => {
    expect(refused(input)).toBe('looks like a file path, not a web address');
  });
});

describe('normalizeUrl: site names', () => {
  it.each([
    ['chatgpt', 'https://chatgpt.com/'],
    ['ChatGPT', 'https://chatgpt.com/'],
    ['hacker news', 'https://news.ycombinator.com/'],
    ['Hacker  News', 'https://news.ycombinator.com/'],
    ['hackernews', 'https://news.ycombinator.com/'],
    ['hn', 'https://news.ycombinator.com/'],
    ['gmail', 'https://mail.google.com/'],
    ['google docs', 'https://docs.google.com/'],
    ['Google Docs', 'https://docs.google.com/'],
    ['yt', 'https://youtube.com/'],
    ['x', 'https://x.com/'],
    ['twitter', 'https://x.com/'],
    ['gh', 'https://github.com/'],
    ['reddit', 'https://reddit.com/'],
    ['wikipedia', 'https://wikipedia.org/'],
    ['stackoverflow', 'https://stackoverflow.com/'],
    ['stack overflow', 'https://stackoverflow.com/'],
    ['claude', 'https://claude.ai/'],
  ])('alias %j -> %s', (input, url) => {
    expect(accepted(input).url).toBe(url);
  });

  it('reports the registrable domain for an alias that points at a subdomain', () => {
    expect(accepted('gmail').domain).toBe('google.com');
    expect(accepted('hn').domain).toBe('ycombinator.com');
  });

  it.each([
    ['youtube', 'https://youtube.com/'],
    ['YouTube', 'https://youtube.com/'],
    ['netflix', 'https://netflix.com/'],
    ['hugging-face', 'https://hugging-face.com/'],
    ['7zip', 'https://7zip.com/'],
    ['constructor', 'https://constructor.com/'],
    ['toString', 'https://tostring.com/'],
    ['hasOwnProperty', 'https://hasownproperty.com/'],
  ])('single word %j -> %s', (input, url) => {
    expect(accepted(input).url).toBe(url);
  });

  it('does not read "__proto__" from the alias table', () => {
    expect(refused('__proto__')).toBe('has no known top-level domain');
  });

  it.each(['-foo', 'foo-', 'foo_bar', 'a'.repeat(64)])('does not guess a site for the bad label %j', (input) => {
    expect(refused(input)).toBe('has no known top-level domain');
  });

  it.each(['weather in paris', 'open github', 'git hub', 'best pizza near me', 'youtube cats'])(
    'refuses the phrase %j instead of searching',
    (input) => {
      expect(refused(input)).toBe('is not a web address or known site name');
    },
  );
});

describe('domainOf', () => {
  it.each([
    ['https://github.com/foo', 'github.com'],
    ['https://old.reddit.com/r/x', 'reddit.com'],
    ['https://a.b.c.example.com', 'example.com'],
    ['https://www.bbc.co.uk/news', 'bbc.co.uk'],
    ['https://news.ycombinator.com/item?id=1', 'ycombinator.com'],
    ['http://GitHub.COM', 'github.com'],
    ['https://github.com.', 'github.com'],
    ['http://localhost:3000/x', 'localhost'],
    ['http://localhost', 'localhost'],
    ['http://127.0.0.1:8080', '127.0.0.1'],
    ['http://192.168.1.10/admin', '192.168.1.10'],
    ['http://[::1]:3000/', '[::1]'],
    ['http://intranet/', 'intranet'],
  ])('%j -> %j', (url, domain) => {
    expect(domainOf(url)).toBe(domain);
  });

  it.each([
    'about:blank',
    'chrome://newtab',
    'chrome://newtab/',
    'data:text/html,hi',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'ftp://ftp.example.com/',
    'github.com',
    '',
    'not a url',
    'https://',
    'http://[::1',
  ])('returns "" for %j', (url) => {
    expect(domainOf(url)).toBe('');
  });

  it('never throws, even for values that are not strings at runtime', () => {
    for (const value of [undefined, null, 42, {}]) {
      expect(() => domainOf(value as unknown as string)).not.toThrow();
    }
  });
});
