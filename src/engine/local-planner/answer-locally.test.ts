import { describe, expect, it } from 'vitest';
import { answerLocally } from './answer-locally';
import { chromeDown, laptop, twoMonitors } from './test-fixtures';

describe('answerLocally', () => {
  it.each([
    ['how many tabs do I have open?', 'You have 9 tabs open in 1 window.'],
    ['How many tabs are open', 'You have 9 tabs open in 1 window.'],
    ['which tabs are from github?', '2 tabs match "github": 5 "GitHub - deskpilot/issues" and 6 "GitHub - vercel/next.js".'],
    ['how many reddit tabs do I have?', '2 tabs match "reddit": 2 "Moving from Jest to Vitest : r/typescript" and 3 "Best budget grinder? : r/espresso".'],
    ['do I have any figma tabs open?', 'No open tab matches "figma".'],
    ['which tab is active?', 'The active tab is 7 "Hacker News".'],
    ['how many apps are running', '6 apps are running: Google Chrome, Slack, Terminal, Spotify, Code and Cursor.'],
    ['what presets do I have?', 'You have 4 presets: "code space", "writing", "meeting" and "Code Review".'],
    ['is slack running?', 'Yes, Slack is running (1 window).'],
    ['is zoom running?', 'No, Zoom is not running.'],
  ])('%s', (q, a) => expect(answerLocally(q, laptop())).toBe(a));

  it('says what is on a monitor', () => {
    expect(answerLocally("what's on my left monitor?", twoMonitors())).toBe(
      'On the left monitor (LEFT): Google Chrome ("Pull Request #12 · acme/ap…Google Chrome") and Slack ("Slack").',
    );
    expect(answerLocally('what is on the right screen', twoMonitors())).toMatch(/^On the right monitor \(RIGHT\): Google Chrome .*Chromium.*Terminal.*Cursor/);
  });

  it('counts windows and monitors', () => {
    expect(answerLocally('how many windows are open?', twoMonitors())).toBe('6 windows are open (Google Chrome: 2, Chromium: 1, Slack: 1, Terminal: 1, Cursor: 1).');
    expect(answerLocally('how many monitors do I have', twoMonitors())).toBe('You have 2 monitors: LEFT (main, left, 1920x1080) and RIGHT (right, 2560x1440).');
    expect(answerLocally('which tab is active', twoMonitors())).toBe(
      'Each window has its own active tab: 1 "Pull Request #12 · acme/api · GitHub" (window 1) and 3 "Designing Data-Intensive Applications - YouTube" (window 2).',
    );
  });

  it('says why it cannot see tabs', () => {
    expect(answerLocally('how many tabs do I have open?', chromeDown(laptop()))).toBe("I can't see Chrome's tabs: Chrome is not reachable: run `deskpilot chrome launch`.");
  });

  it('leaves open questions to the LLM', () => {
    for (const q of ['what should I work on next?', 'summarise the reddit thread', 'why is my fan loud?', 'what was I reading yesterday?']) {
      expect(answerLocally(q, laptop())).toBeNull();
    }
  });
});
