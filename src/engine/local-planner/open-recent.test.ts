import { describe, expect, it } from 'vitest';
import type { Envelope } from '../../protocol/commands';
import type { ContextSnapshot } from '../../protocol/context';
import { answerLocally } from './answer-locally';
import { planLocally } from './local-planner';
import { app, laptop, tab, turn } from './test-fixtures';

// Reopening recent files and projects by the words people use for them.

const desk = (over: Partial<ContextSnapshot> = {}): ContextSnapshot =>
  laptop({
    installed_apps: [{ name: 'gedit', generic_name: 'Text Editor' }, { name: 'Visual Studio Code', keywords: ['vscode'] }, { name: 'IntelliJ IDEA' }, { name: 'Slack' }],
    recent_files: [
      { path: '/home/u/notes/standup.md', app: 'gedit', used_at: '2026-12-01T08:55:00.000Z' },
      { path: '/home/u/Downloads/invoice-2026-11.pdf', app: null, used_at: '2026-11-30T17:20:00.000Z' },
      { path: '/home/u/Pictures/whiteboard.png', app: null, used_at: '2026-11-28T11:40:00.000Z' },
      { path: '/home/u/Downloads/receipt-2026-10.pdf', app: null, used_at: '2026-11-20T11:40:00.000Z' },
    ],
    recent_projects: [
      { path: '/home/u/src/deskpilot', app: 'Visual Studio Code', used_at: null },
      { path: '/home/u/IdeaProjects/billing-service', app: 'IntelliJ IDEA', used_at: '2026-11-27T10:00:00.000Z' },
    ],
    ...over,
  });

const commands = (text: string, snap = desk(), turns = [] as ReturnType<typeof turn>[]) => {
  const e = planLocally({ text, context: snap, turns }).envelope as Envelope;
  return e.needs_clarification ? e.clarification_reason : e.commands;
};

describe('open_recent in the offline matcher', () => {
  it('a project by its name, in the app named', () => {
    expect(commands('open the deskpilot project in vs code')).toEqual([{ type: 'open_recent', path: '/home/u/src/deskpilot', app_name: 'Visual Studio Code' }]);
    expect(commands('open the billing service project')).toEqual([{ type: 'open_recent', path: '/home/u/IdeaProjects/billing-service' }]);
    expect(commands('could you reopen my billing-service repo please')).toEqual([{ type: 'open_recent', path: '/home/u/IdeaProjects/billing-service' }]);
  });

  it('"the file I had open in gedit": the newest file that app opened, in that app', () => {
    expect(commands('reopen the file I had open in gedit')).toEqual([{ type: 'open_recent', path: '/home/u/notes/standup.md', app_name: 'gedit' }]);
    expect(commands('open the last file')).toEqual([{ type: 'open_recent', path: '/home/u/notes/standup.md' }]);
  });

  it('a file by a word of its name and a kind of file', () => {
    expect(commands('open my invoice pdf')).toEqual([{ type: 'open_recent', path: '/home/u/Downloads/invoice-2026-11.pdf' }]);
    expect(commands('open the whiteboard picture')).toEqual([{ type: 'open_recent', path: '/home/u/Pictures/whiteboard.png' }]);
    expect(commands('open standup.md')).toEqual([{ type: 'open_recent', path: '/home/u/notes/standup.md' }]);
  });

  it('two files the words fit: asks, naming both', () => {
    const q = commands('open my pdf');
    expect(q).toContain('invoice-2026-11.pdf');
    expect(q).toContain('receipt-2026-10.pdf');
  });

  it('leaves everything else to the other rules: an app, a site, a tab, a file that is not listed', () => {
    expect(commands('open slack')).toEqual([{ type: 'focus_app', app_name: 'Slack' }]);
    expect(commands('open the deskpilot project', desk({ recent_projects: [] }))).not.toEqual(expect.arrayContaining([expect.objectContaining({ type: 'open_recent' })]));
    const figma = desk({ tabs: [tab(1, 'https://www.figma.com/file/abc/Checkout-redesign', 'Checkout redesign – Figma', { active: true })] });
    expect(commands('open the figma file for the checkout redesign', figma)).toEqual([{ type: 'switch_tab', tab_index: 1 }]);
  });

  it('"it" after reopening a project in an app is that app', () => {
    const before = turn('open the deskpilot project in vs code', [{ type: 'open_recent', path: '/home/u/src/deskpilot', app_name: 'Visual Studio Code' }]);
    const running = desk();
    running.running_apps.push(app('Visual Studio Code', [0, 32, 900, 1000], 'eDP-1'));
    expect(commands('maximise it', running, [before])).toEqual([expect.objectContaining({ type: 'place_app', app_name: 'Visual Studio Code' })]);
  });
});

describe('questions about recent files and projects, answered from the snapshot', () => {
  it('lists them newest first with the app and age; says when none are recorded; leaves it to the LLM when none are read', () => {
    const snap = desk({ taken_at: '2026-12-01T09:55:00.000Z' });
    expect(answerLocally('what files did I open recently?', snap)).toBe(
      'Recent files, newest first: standup.md in notes (gedit, 1 h ago), invoice-2026-11.pdf in Downloads (17 h ago), whiteboard.png in Pictures (3 d ago) and receipt-2026-10.pdf in Downloads (11 d ago).',
    );
    expect(answerLocally('what are my recent projects', snap)).toBe(
      'Recent projects, newest first: deskpilot in src (Visual Studio Code) and billing-service in IdeaProjects (IntelliJ IDEA, 4 d ago).',
    );
    expect(answerLocally('what files did I open recently?', desk({ recent_files: [] }))).toBe('No recent files are recorded.');
    expect(answerLocally('what files did I open recently?', laptop())).toBeNull();
  });
});
