import type { PageCommand } from '../../protocol/agent';
import { clip, oneLine, plural } from '../words';

// A page command in words for a person, in one place for every front end. Two registers, side by
// side per action so a new action is described once: 'sentence' says what was done, for the app's
// step list ("Typed “cats” into element 1, then pressed Enter"); 'log' is the terse line of a
// terminal's progress log ("type #1 "cats" + Enter").

export interface DescribeOptions {
  as?: 'sentence' | 'log';
  /** What went into a password field: its length only. */
  hideValue?: boolean;
}

const quoted = (s: string, n = 60) => `“${clip(s, n)}”`;
const element = (id: number) => `element ${id}`;

export function describeCommand(c: PageCommand, opts: DescribeOptions = {}): string {
  const log = opts.as === 'log';
  switch (c.action) {
    case 'click':
      return log
        ? `click #${c.id}${c.count === 2 ? ' (double)' : ''}${c.button === 'right' ? ' (right)' : ''}`
        : `${c.count === 2 ? 'Double-clicked' : c.button === 'right' ? 'Right-clicked' : 'Clicked'} ${element(c.id)}`;
    case 'type': {
      const hidden = `${plural(c.value.length, 'hidden character')}`;
      if (log) {
        const value = opts.hideValue ? `(${hidden})` : JSON.stringify(clip(c.value, 40));
        return `type #${c.id} ${value}${c.mode === 'append' ? ' (append)' : ''}${c.submit ? ' + Enter' : ''}`;
      }
      const what = opts.hideValue ? hidden : quoted(c.value);
      return `${c.mode === 'append' ? 'Added' : 'Typed'} ${what} into ${opts.hideValue ? 'the password field, ' : ''}${element(c.id)}${c.submit ? ', then pressed Enter' : ''}`;
    }
    case 'select': {
      if (log) return `select #${c.id} ${JSON.stringify(c.option)}`;
      const o = c.option;
      const which = 'text' in o ? quoted(o.text) : 'value' in o ? `value ${quoted(o.value)}` : `option ${o.index + 1}`;
      return `Chose ${which} in ${element(c.id)}`;
    }
    case 'press_key':
      return log ? `press ${c.key}${c.id !== undefined ? ` on #${c.id}` : ''}` : `Pressed ${c.key}${c.id !== undefined ? ` on ${element(c.id)}` : ''}`;
    case 'scroll':
      if (c.direction === 'toElement') return log ? `scroll to #${c.id ?? '?'}` : `Scrolled ${c.id !== undefined ? element(c.id) : 'an element'} into view`;
      return log
        ? `scroll ${c.direction}${c.id !== undefined ? ` #${c.id}` : ''}`
        : `Scrolled ${c.direction === 'top' || c.direction === 'bottom' ? `to the ${c.direction}` : c.direction}${c.id !== undefined ? ` in ${element(c.id)}` : ''}`;
    case 'navigate':
      if (log) return `navigate ${typeof c.to === 'string' ? c.to : c.to.url}`;
      return typeof c.to === 'string' ? (c.to === 'reload' ? 'Reloaded the page' : `Went ${c.to}`) : `Went to ${c.to.url}`;
    case 'wait_for': {
      const cond = c.condition;
      if (log) return `wait for ${typeof cond === 'string' ? cond : 'text' in cond ? JSON.stringify(cond.text) : cond.selector}`;
      if (typeof cond === 'string') return `Waited for ${cond === 'navigation' ? 'the page to load' : 'the network to go quiet'}`;
      return 'text' in cond ? `Waited for ${quoted(cond.text)}` : `Waited for an element ${quoted(cond.selector)}`;
    }
    case 'read_page':
      return log ? `read page${c.id !== undefined ? ` #${c.id}` : ''}` : c.id !== undefined ? `Read ${element(c.id)}` : 'Read the page';
    case 'get_html':
      return log ? `get html${c.id !== undefined ? ` #${c.id}` : ''}` : c.id !== undefined ? `Read the HTML of ${element(c.id)}` : 'Read the HTML of the page';
    case 'open_tab':
      return log ? `open tab ${c.url}` : `Opened ${c.url} in a new tab`;
    case 'open_tool':
      return log ? `open tool ${JSON.stringify(c.name)}` : `Opened the tool ${quoted(c.name)}`;
    case 'switch_tab':
      return log ? `switch to tab ${c.tab}` : `Switched to tab ${c.tab}`;
    case 'close_tab':
      return log ? `close tab ${c.tab}` : `Closed tab ${c.tab}`;
    case 'list_tabs':
      return log ? 'list tabs' : 'Listed the open tabs';
    case 'done':
      return log ? 'done' : 'Finished with the answer';
  }
}

/** What came of a command, for a person: its words and any page text it read, on one short line. */
export const outcomeLine = (o: { message: string; data?: string }, max: number) => clip(oneLine(o.data ? `${o.message} ${o.data}` : o.message), max);
