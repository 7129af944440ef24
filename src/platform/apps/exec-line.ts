// The Exec key: quoting rules and field codes (Desktop Entry Specification, "The Exec key").
import path from 'node:path';

export class ExecSyntaxError extends Error {}

const SPACE = new Set([' ', '\t', '\n']);
/** Inside double quotes only these may be backslash-escaped; any other backslash is literal. */
const DQ_ESCAPABLE = new Set(['"', '`', '$', '\\']);

/**
 * Splits an (already unescaped) Exec value into arguments. Beyond the spec's double quotes this
 * accepts what GLib's parser accepts and real files use: single quotes, backslash escapes outside
 * quotes, and quotes inside a word ("--title=\"a b\"").
 */
export function tokenizeExec(exec: string): string[] {
  const args: string[] = [];
  let cur = '';
  let inArg = false;
  for (let i = 0; i < exec.length; i++) {
    const c = exec[i]!;
    if (SPACE.has(c)) {
      if (inArg) args.push(cur);
      cur = '';
      inArg = false;
      continue;
    }
    inArg = true;
    if (c === '"') {
      for (i++; ; i++) {
        if (i >= exec.length) throw new ExecSyntaxError(`unterminated double quote in Exec: ${exec}`);
        const d = exec[i]!;
        if (d === '"') break;
        if (d === '\\' && i + 1 < exec.length && DQ_ESCAPABLE.has(exec[i + 1]!)) cur += exec[++i];
        else cur += d;
      }
    } else if (c === "'") {
      const end = exec.indexOf("'", i + 1);
      if (end < 0) throw new ExecSyntaxError(`unterminated single quote in Exec: ${exec}`);
      cur += exec.slice(i + 1, end);
      i = end;
    } else if (c === '\\' && i + 1 < exec.length) {
      cur += exec[++i];
    } else {
      cur += c;
    }
  }
  if (inArg) args.push(cur);
  return args;
}

export interface FieldCodeContext {
  /** The entry's Name, for %c. */
  name: string;
  /** The entry's Icon, for %i. */
  icon?: string;
  /** The .desktop file's path, for %k. */
  location: string;
}

/**
 * Expands field codes for a launch without files or URLs: %f %F %u %U vanish (and with them an
 * argument that was nothing but the code), %c is the name, %k the file, a standalone %i becomes
 * "--icon <Icon>" (nothing without an Icon), %% is %. Deprecated and unknown codes vanish.
 */
export function expandFieldCodes(args: string[], ctx: FieldCodeContext): string[] {
  const out: string[] = [];
  for (const arg of args) {
    if (arg === '%i') {
      if (ctx.icon) out.push('--icon', ctx.icon);
      continue;
    }
    if (/^%[fFuUdDnNvm]$/.test(arg)) continue;
    out.push(
      arg.replace(/%(.?)/g, (_, code: string) => {
        if (code === '%') return '%';
        if (code === 'c') return ctx.name;
        if (code === 'k') return ctx.location;
        return ''; // file/URL codes with nothing to fill in, %i inside a word, deprecated or unknown codes
      }),
    );
  }
  return out;
}

/**
 * The program's base name, looking through an `env VAR=value …` prefix (common in snap and
 * Steam entries), e.g. "google-chrome-stable" for "/usr/bin/google-chrome-stable %U".
 */
export function execProgramName(argv: string[]): string | undefined {
  let i = 0;
  if (argv[0] !== undefined && path.posix.basename(argv[0]) === 'env') {
    i = 1;
    while (i < argv.length && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(argv[i]!) || argv[i]!.startsWith('-'))) i++;
  }
  const program = argv[i];
  return program ? path.posix.basename(program) : undefined;
}
