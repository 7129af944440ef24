import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PlaceApp, TileApps } from './commands';
import { formatFieldError, parseInput } from './validation';

// The window fields of the protocol: monitors named in any case.

describe('monitor targets without regard to case', () => {
  it('"LEFT", as the snapshot prints the monitor, is the left monitor; " Next " is next', () => {
    expect(PlaceApp.parse({ type: 'place_app', app_name: 'XTerm', monitor: 'LEFT' }).monitor).toBe('left');
    expect(TileApps.parse({ type: 'tile_apps', app_names: ['A', 'B'], monitor: ' Next ' }).monitor).toBe('next');
  });

  it('a monitor that is no target is refused naming the field and the choices', () => {
    const r = parseInput({ type: 'place_app', app_name: 'XTerm', monitor: 'DP-9' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors.map(formatFieldError).join('\n')).toMatch(/monitor.*must be one of "main", "left"/);
  });

  it('JSON Schema (MCP tools, the LLM format, docs) still lists the targets', () => {
    const schema = z.toJSONSchema(PlaceApp, { io: 'input' }) as unknown as { properties: { monitor: { enum: string[]; type: string } } };
    expect(schema.properties.monitor.type).toBe('string');
    expect(schema.properties.monitor.enum).toContain('left');
  });
});
