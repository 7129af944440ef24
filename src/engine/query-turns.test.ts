import { describe, expect, it } from 'vitest';
import type { ContextSnapshot } from '../protocol/context';
import type { Turn } from '../protocol/planning';
import { executeOne, type ExecutionPorts } from './execute';
import type { QuestionAnswerer } from './ports';
import { UndoCollector } from './undo-collector';

// An open question is answered with the conversation so far, so "and which of those is
// oldest?" has something to refer to. The answerer is a fake: a real one is a remote LLM.

const snap: ContextSnapshot = {
  taken_at: '2026-12-01T09:30:00.000Z',
  monitors: [],
  running_apps: [],
  installed_apps: [],
  tabs: [],
  presets: [],
  recent_files: [{ path: '/home/u/a.md', app: null, used_at: '2026-11-01T00:00:00.000Z' }],
  sources: { windows: { ok: true, message: '' }, chrome: { ok: true, message: '' }, presets: { ok: true, message: '' } },
};

const earlier: Turn = {
  at: 1,
  text: 'what files did I open recently?',
  envelope: { commands: [{ type: 'query', question: 'what files did I open recently?' }], needs_clarification: false, clarification_reason: null },
  outcome: 'a.md, b.md',
};

describe('query with the recent turns (fake answerer)', () => {
  it('hands the answerer the turns the engine passes, oldest first', async () => {
    const seen: Array<readonly Turn[]> = [];
    const answerer: QuestionAnswerer = {
      answer: async ({ turns }: { turns: readonly Turn[] }) => (seen.push(turns), { answer: 'a.md is oldest', usage: null }),
    } as unknown as QuestionAnswerer;
    const ports = { answerer } as unknown as ExecutionPorts;
    const { result } = await executeOne(
      { type: 'query', command: { type: 'query', question: 'and which of those is oldest?' } },
      { ports, snap: async () => snap, undo: new UndoCollector(), turns: async () => [earlier] },
    );
    expect(result).toMatchObject({ ok: true, message: 'a.md is oldest', data: { answered_by: 'llm' } });
    expect(seen).toEqual([[earlier]]);
  });

  it('a turn store that fails still gets the question answered, without turns', async () => {
    const seen: Array<readonly Turn[]> = [];
    const answerer = { answer: async ({ turns }: { turns: readonly Turn[] }) => (seen.push(turns), { answer: 'ok', usage: null }) } as unknown as QuestionAnswerer;
    const { result } = await executeOne(
      { type: 'query', command: { type: 'query', question: 'and which of those is oldest?' } },
      { ports: { answerer } as unknown as ExecutionPorts, snap: async () => snap, undo: new UndoCollector(), turns: () => Promise.reject(new Error('disk gone')) },
    );
    expect(result?.ok).toBe(true);
    expect(seen).toEqual([[]]);
  });
});
