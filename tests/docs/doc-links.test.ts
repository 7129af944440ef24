import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentationFiles, REPO } from './runnable-examples';

// Every relative link in README.md and docs/*.md leads somewhere: the file (or folder) exists,
// and a `#fragment` names a heading of the page it points to, as GitHub makes heading anchors.

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of withoutFences(markdown).split('\n')) {
    const m = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const text = m[1]!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** Fenced blocks hold examples, not headings or links. */
function withoutFences(markdown: string): string {
  return markdown.replace(/^```[^\n]*\n[\s\S]*?^```\s*$/gm, '');
}

/** Inline code holds examples too; a heading's code stays (its text is part of the anchor). */
function withoutCode(markdown: string): string {
  return withoutFences(markdown).replace(/`[^`\n]*`/g, '');
}

/** [text](target) and ![alt](target), without a title; external and mail links left out. */
export function relativeLinks(markdown: string): string[] {
  const links: string[] = [];
  for (const m of withoutCode(markdown).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = m[1]!;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    links.push(target);
  }
  return links;
}

function broken(file: string): string[] {
  const text = readFileSync(path.join(REPO, file), 'utf8');
  const problems: string[] = [];
  for (const link of relativeLinks(text)) {
    const [target, fragment] = link.split('#', 2) as [string, string | undefined];
    const resolved = target === '' ? path.join(REPO, file) : path.resolve(path.dirname(path.join(REPO, file)), decodeURIComponent(target));
    if (!existsSync(resolved)) {
      problems.push(`${file}: ${link} — no such file`);
      continue;
    }
    if (fragment === undefined || !resolved.endsWith('.md') || statSync(resolved).isDirectory()) continue;
    if (!headingAnchors(readFileSync(resolved, 'utf8')).has(fragment)) problems.push(`${file}: ${link} — no heading with that anchor`);
  }
  return problems;
}

describe('documentation links', () => {
  it('GitHub heading anchors: punctuation dropped, code kept as text, repeats numbered (so the check below means something)', () => {
    const anchors = headingAnchors('# Call `deskpilot` directly\n## The agent\'s snapshot\n## The agent task suite (`--agent`)\n## Setup\n## Setup\n```\n# not a heading\n```\n');
    expect([...anchors]).toEqual(['call-deskpilot-directly', 'the-agents-snapshot', 'the-agent-task-suite---agent', 'setup', 'setup-1']);
    expect(relativeLinks('[a](docs/x.md#y) [b](https://e.org) ![c](images/l.png) `[d](not/a/link.md)`')).toEqual(['docs/x.md#y', 'images/l.png']);
  });

  it.each(documentationFiles())('every relative link in %s resolves', (file) => {
    expect(broken(file)).toEqual([]);
  });

  it('README.md links to every page in docs/', () => {
    const linked = new Set(relativeLinks(readFileSync(path.join(REPO, 'README.md'), 'utf8')).map((l) => l.split('#')[0]));
    const pages = documentationFiles().filter((f) => f.startsWith('docs/'));
    expect(pages.filter((p) => !linked.has(p))).toEqual([]);
  });
});
