import type { ConfigFlags } from '../platform/config/load-config';
import { PACKAGE_VERSION } from '../platform/package-version';
import { EXIT } from './exit-codes';
import type { Io } from './io';
import { missingDesktopHint } from './mcp-environment';
import { configDirFrom, openDesk } from './open-desk';
import { untilSignalled } from './until-signalled';

// `deskpilot mcp`: DeskPilot as an MCP server, over stdio (what desktop clients spawn) or
// Streamable HTTP on loopback with a bearer token. It serves the same desk as the CLI: the
// warm service when one runs, else an engine in this process. On stdio, stdout belongs to
// the protocol: everything for people goes to stderr.

export interface McpArgs {
  http: boolean;
  host: string;
  /** As typed; checked here. */
  port: string;
  allowNonLoopback: boolean;
  newToken: boolean;
}

export async function runMcp(flags: ConfigFlags, args: McpArgs, io: Io): Promise<number> {
  const signals = untilSignalled();
  try {
    return await serve(flags, args, io, signals.stopped);
  } finally {
    signals.dispose();
  }
}

async function serve(flags: ConfigFlags, args: McpArgs, io: Io, stop: Promise<unknown>): Promise<number> {
  const port = Number(args.port);
  if (!/^\d+$/.test(args.port) || port > 65535) {
    io.err(`--port: must be a whole number from 0 to 65535 (0 picks a free port), not "${args.port}"\n`);
    return EXIT.invalid;
  }
  if (args.http && !(await import('../compose/mcp-http')).isLoopbackHost(args.host) && !args.allowNonLoopback) {
    io.err(
      `--host ${args.host} is not a loopback address: anyone who reaches it and has the token could drive this desktop. ` +
        'Use 127.0.0.1, or pass --allow-non-loopback if you really mean it.\n',
    );
    return EXIT.invalid;
  }
  const configDir = configDirFrom(flags);
  let token;
  if (args.http) {
    const { loadOrCreateToken, McpTokenError } = await import('../compose/mcp-token');
    try {
      token = await loadOrCreateToken(configDir, { renew: args.newToken });
    } catch (e) {
      if (!(e instanceof McpTokenError)) throw e;
      io.err(`deskpilot mcp: ${e.message}\n`);
      return EXIT.invalid;
    }
  }

  const [{ createDeskMcpServer }, { mcpContext }, { ReopeningDesk }, { mcpDevices }] = await Promise.all([
    import('../app/mcp/create-server'),
    import('../compose/mcp-context'),
    import('../app/reopening-desk'),
    import('../compose/mcp-devices'),
  ]);
  // It lives as long as the assistant: if the service it uses stops, the next call reopens the desk.
  const desk = new ReopeningDesk(await openDesk(flags, io), () => openDesk(flags, io));
  const devices = await mcpDevices(flags);
  const { ctx, changes } = mcpContext(desk, configDir, devices);
  const hint = desk.via === 'in-process' ? missingDesktopHint(configDir) : null;
  if (hint) io.err(`deskpilot mcp: ${hint}\n`);
  // The model reads it too (the server's instructions): it is the one who can tell the user.
  const newSession = () => createDeskMcpServer(ctx, changes, PACKAGE_VERSION, hint ?? undefined);
  const via = desk.via === 'service' ? 'through the running DeskPilot service' : 'with the engine in this process';
  try {
    if (!token) {
      const { BoundedStdioTransport } = await import('./mcp-stdio-transport');
      const session = newSession();
      await session.server.connect(new BoundedStdioTransport());
      io.err(`DeskPilot MCP server on stdio, ${via}\n`);
      await Promise.race([stop, stdinClosed()]);
      await session.close();
      return EXIT.ok;
    }
    const { startMcpHttp } = await import('../compose/mcp-http');
    let http;
    try {
      http = await startMcpHttp({ host: args.host, port, token: token.token, newSession });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      io.err(`deskpilot mcp: cannot listen on ${args.host}:${port} (${code === 'EADDRINUSE' ? 'the port is in use; pick another with --port' : (e as Error).message})\n`);
      return EXIT.failed;
    }
    io.out(`DeskPilot MCP server at ${http.url}, ${via}\n`);
    io.out(
      token.created
        ? `bearer token (shown this once; it is kept in ${token.file}): ${token.token}\n`
        : `bearer token: in ${token.file} (not shown again; --new-token makes a new one)\n`,
    );
    await stop;
    await http.close();
    io.out('DeskPilot MCP server stopped\n');
    return EXIT.ok;
  } finally {
    changes.close();
    await devices?.close();
    await desk.close();
  }
}

/** The client closed our stdin: it is done with us. */
function stdinClosed(): Promise<void> {
  return new Promise((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
  });
}
