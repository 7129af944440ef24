import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// The documentation's runnable examples: every line of a fenced block whose info string is
// `sh runnable` (GitHub shows only the first word, so readers never see the marker). A line's
// trailing comment may state the exit code it ends with ("… exits 3 …"); otherwise it must exit 0.

export interface RunnableExample {
  /** e.g. "README.md:52" */
  where: string;
  /** The line as written, comment included (bash drops the comment). */
  command: string;
  expectedCode: number;
}

const OPEN = /^```sh runnable\s*$/;
const CLOSE = /^```\s*$/;
const EXIT_CODE = /#.*\bexits (\d+)\b/;

export function runnableExamples(file: string, markdown: string): RunnableExample[] {
  const examples: RunnableExample[] = [];
  let inside = false;
  markdown.split('\n').forEach((line, i) => {
    if (!inside) {
      inside = OPEN.test(line);
      return;
    }
    if (CLOSE.test(line)) {
      inside = false;
      return;
    }
    const command = line.trim();
    if (command === '' || command.startsWith('#')) return;
    const code = EXIT_CODE.exec(command);
    examples.push({ where: `${file}:${i + 1}`, command, expectedCode: code ? Number(code[1]) : 0 });
  });
  if (inside) throw new Error(`${file}: a \`sh runnable\` block is never closed`);
  return examples;
}

export const REPO = path.join(__dirname, '..', '..');

/** README.md, then docs/*.md in name order, as paths relative to the repository. */
export function documentationFiles(): string[] {
  const docs = readdirSync(path.join(REPO, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs];
}

export function allRunnableExamples(): RunnableExample[] {
  return documentationFiles().flatMap((f) => runnableExamples(f, readFileSync(path.join(REPO, f), 'utf8')));
}
