import { describe, expect, it } from 'vitest';
import { presentAgentText, presentStep, shortUrl, withoutElementNumbers } from './agent-present';

describe('agent steps as a person reads them', () => {
  it('drops the agent’s element numbers', () => {
    expect(withoutElementNumbers('Typed “rain” into element 1, then pressed Enter')).toBe('Typed “rain”, then pressed Enter');
    expect(withoutElementNumbers('Typed 7 hidden characters into the password field, element 2, then pressed Enter')).toBe(
      'Typed 7 hidden characters into the password field, then pressed Enter',
    );
    expect(withoutElementNumbers('Type into the password field (element 2) on 127.0.0.1?')).toBe('Type into the password field on 127.0.0.1?');
    expect(withoutElementNumbers('Typing into element 2…')).toBe('Typing…');
    expect(withoutElementNumbers('Clicked element 4')).toBe('Clicked an item on the page');
  });

  it('shortens addresses: a page of this computer by its file, a site by host and path', () => {
    expect(shortUrl('http://127.0.0.1:40967/login.html')).toBe('login.html');
    expect(shortUrl('http://localhost:3000/')).toBe('a page on this computer');
    expect(shortUrl('https://www.example.com/shop/boots/')).toBe('example.com/shop/boots');
    expect(presentAgentText('Opened http://127.0.0.1:40967/login.html in a new tab')).toBe('Opened login.html in a new tab');
    expect(presentAgentText('Type into the password field (element 2) on 127.0.0.1?')).toBe('Type into the password field on this computer?');
  });

  it('says each action once: a result that restates the command, or the page text read, is not repeated', () => {
    expect(presentStep({ state: 'done', command: 'Opened the tool “Shop”', output: 'Opened tab 1 (tool "Shop"): http://127.0.0.1:40967/search.html' })).toEqual({
      command: 'Opened the tool “Shop”',
      output: null,
    });
    expect(presentStep({ state: 'done', command: 'Typed “rain” into element 1, then pressed Enter', output: 'Typed "rain" into element 1. Pressed Enter.' })).toEqual({
      command: 'Typed “rain”, then pressed Enter',
      output: null,
    });
    expect(presentStep({ state: 'done', command: 'Read the page', output: 'Read 61 characters of page text. Shop Search 2 results for rain Blue rain jacket' })).toEqual({
      command: 'Read the page',
      output: null,
    });
  });

  it('keeps a result that adds something, and always a failure’s reason', () => {
    expect(presentStep({ state: 'done', command: 'Clicked element 3', output: 'The page changed to "Results"' })).toEqual({
      command: 'Clicked an item on the page',
      output: 'The page changed to “Results”',
    });
    expect(presentStep({ state: 'failed', command: 'Clicked element 9', output: 'Clicked nothing: element 9 is not on the page' }).output).toBe(
      'Clicked nothing: an item on the page is not on the page',
    );
  });
});
