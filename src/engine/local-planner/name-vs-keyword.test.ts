import { describe, expect, it } from 'vitest';
import type { Envelope } from '../../protocol/commands';
import type { ContextSnapshot } from '../../protocol/context';
import { planLocally } from './local-planner';
import { laptop, tab } from './test-fixtures';

// A word that names open tabs outright (their product's own name, or their title's name) is a
// stronger match than an installed app's .desktop keyword; an app's own name still wins; a
// keyword against tabs that only share a word is a question. And a known product on a shared
// parent domain ("google docs") never stands for another product there (Gmail).

const plan = (text: string, snap: ContextSnapshot) => {
  const e = planLocally({ text, context: snap, turns: [] }).envelope as Envelope;
  return e.needs_clarification ? e.clarification_reason : e.commands;
};

const withApps = (tabs: ReturnType<typeof tab>[]) =>
  laptop({
    tabs,
    installed_apps: [
      { name: 'Slack' },
      { name: 'Evolution', generic_name: 'Groupware Suite', keywords: ['email', 'Mail', 'Notes', 'Tasks'] },
      { name: 'Rhythmbox', generic_name: 'Music Player', keywords: ['Audio', 'Song', 'Podcast'] },
    ],
  });

describe('an open product named outright beats an app keyword', () => {
  it('"tasks" is the two identical Google Tasks tabs (the last used one), not Evolution', () => {
    const snap = withApps([
      tab(1, 'https://mail.google.com/mail/u/0/#inbox', 'Inbox - Gmail'),
      { ...tab(2, 'https://tasks.google.com/tasks/', 'Google Tasks'), last_used_at: '2026-11-20T09:00:00.000Z' },
      { ...tab(3, 'https://tasks.google.com/tasks/', 'Google Tasks'), last_used_at: '2026-11-20T08:00:00.000Z' },
    ]);
    expect(plan('tasks', snap)).toEqual([{ type: 'switch_tab', tab_index: 2 }]);
    expect(plan('switch to tasks', snap)).toEqual([{ type: 'switch_tab', tab_index: 2 }]);
  });

  it('"podcast" is the tab whose title names it, not Rhythmbox', () => {
    const snap = withApps([tab(1, 'https://pod.example.org/ep/12', 'Podcast - Episode 12 show notes')]);
    expect(plan('switch to podcast', snap)).toEqual([{ type: 'switch_tab', tab_index: 1 }]);
  });

  it('an app keyword and tabs that merely share the word: ask', () => {
    const snap = withApps([tab(1, 'https://blog.example.org/p/7', 'My favourite song lyrics explained')]);
    expect(plan('switch to song', snap)).toEqual(expect.stringMatching(/Rhythmbox[\s\S]*lyrics|lyrics[\s\S]*Rhythmbox/));
  });

  it("an app's own name still wins", () => {
    const snap = withApps([tab(1, 'https://slack.example.org/', 'Slack alternatives - Example')]);
    expect(plan('switch to slack', snap)).toEqual([{ type: 'focus_app', app_name: 'Slack' }]);
  });
});

describe('a known product is not another product on the same parent domain', () => {
  const snap = laptop({
    tabs: [
      tab(1, 'https://mail.google.com/mail/u/0/#inbox', 'Inbox (3) - Acme Mail'),
      tab(2, 'https://github.com/acme/web', 'GitHub - acme/web', { active: true }),
    ],
  });

  it('"the google sheet" with no Sheets tab asks, never Gmail', () => {
    expect(plan('switch to the google sheet', snap)).toEqual(expect.any(String));
    expect(plan('go to the google sheet', snap)).not.toEqual([{ type: 'switch_tab', tab_index: 1 }]);
  });

  it('"the google spreadsheet" does not pick Gmail by the word "google" in its address', () => {
    expect(plan('show me the google spreadsheet', snap)).toEqual(expect.any(String));
  });

  it('"the google tab", no kind of page said, may still be Gmail', () => {
    expect(plan('switch to the google tab', snap)).toEqual([{ type: 'switch_tab', tab_index: 1 }]);
  });

  it('the product itself still matches', () => {
    const docs = laptop({ tabs: [...snap.tabs, tab(3, 'https://docs.google.com/spreadsheets/d/1x/edit', 'Budget 2027 - Google Sheets')] });
    expect(plan('go to the google sheet', docs)).toEqual([{ type: 'switch_tab', tab_index: 3 }]);
  });
});
