import { expect, it } from 'vitest';
import { parseScreenNames } from './screen-names';

it('reads each screen\'s name and scale, and stops at the next section', () => {
  const info = [
    'Screens', '=======', 'Number of Screens: 2', '', 'Screen 0:', '---------', 'Name: DP-1', 'Geometry: 0,0,2560x1440', 'Scale: 1.5',
    'Screen 1:', '---------', 'Name: eDP-1', 'Scale: 2', '', 'Compositing', '===========', 'Name: not a screen',
  ].join('\n');
  expect([...parseScreenNames(info)]).toEqual([
    [0, { name: 'DP-1', scale: 1.5 }],
    [1, { name: 'eDP-1', scale: 2 }],
  ]);
  expect(parseScreenNames('no screens here').size).toBe(0);
});
