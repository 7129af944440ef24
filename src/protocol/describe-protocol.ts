import { z } from 'zod';
import { Command, type CommandType } from './commands';

// Reads the operations back out of the zod source, so docs/protocol.md (and later the
// planner's system prompt) can never disagree with what validation enforces.

export interface FieldDoc {
  name: string;
  type: string;
  required: boolean;
  description: string;
}
export interface OperationDoc {
  type: CommandType;
  description: string;
  fields: FieldDoc[];
}

type Json = { [k: string]: unknown };

function typeName(s: Json): string {
  if (Array.isArray(s.enum)) return `one of ${s.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  if (s.type === 'array') {
    const items = typeName((s.items as Json) ?? {});
    return s.minItems !== undefined && s.minItems === s.maxItems ? `${items}[${s.minItems}]` : `${items}[]`;
  }
  if (s.type === 'integer' && s.minimum === 1) return 'positive integer';
  if (s.type === 'string' && s.minLength === 1) return 'non-empty string';
  return String(s.type ?? 'value');
}

export function describeOperations(): OperationDoc[] {
  return Command.options.map((variant) => {
    const schema = z.toJSONSchema(variant, { io: 'input', unrepresentable: 'any' }) as Json;
    const props = (schema.properties ?? {}) as Record<string, Json>;
    const required = new Set((schema.required as string[]) ?? []);
    const type = (props.type as Json).const as CommandType;
    const fields = Object.entries(props)
      .filter(([name]) => name !== 'type')
      .map(([name, s]) => ({ name, type: typeName(s), required: required.has(name), description: String(s.description ?? '') }));
    return { type, description: variant.description ?? '', fields };
  });
}

export function operationsMarkdown(): string {
  const out: string[] = [];
  for (const op of describeOperations()) {
    out.push(`### \`${op.type}\``, '', op.description, '');
    if (op.fields.length === 0) out.push('No parameters.', '');
    else {
      out.push('| field | type | required | meaning |', '|---|---|---|---|');
      for (const f of op.fields) out.push(`| \`${f.name}\` | ${f.type} | ${f.required ? 'yes' : 'no'} | ${f.description} |`);
      out.push('');
    }
  }
  return out.join('\n');
}
