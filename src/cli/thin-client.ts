import net from 'node:net';
import { readLines, writeLine } from '../platform/service/ndjson';
import { trustedSocket } from '../platform/service/socket-folder';
import { serviceSocketPath } from '../platform/service/socket-path';
import { MAX_SERVICE_LINE } from '../protocol/service-wire';
import { BUILD_ID } from './build-id';
import { EXIT } from './exit-codes';
import { processIo } from './io';
import { configDirFrom, forwardable } from './service-route';

// The first thing every `deskpilot` call runs (bin/deskpilot.js loads it, built on its own as
// out/cli/thin-client.cjs). When the warm service of this config directory runs the same build
// of the CLI, the service runs the whole command — the CLI's own main(), with the service's
// engine — and this process only relays: output to stdout/stderr, questions to this terminal
// and the answers back, and the exit code. So a call costs a Node start and one socket
// exchange. It must stay this small: no argument parser, no zod, no engine. That is why it
// checks each message of the service by hand here, not with the protocol's zod schemas
// (the service checks what it receives with them).

const CALL_ID = 2;

/**
 * Runs the command in the service and resolves with its exit code; resolves null when the CLI
 * must run it in its own process instead: no service answers, the service runs another build,
 * the arguments need this process, or the service refused the call before running anything.
 */
export async function runThroughService(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number | null> {
  const route = BUILD_ID ? forwardable(argv, env) : null;
  if (!route) return null;
  let cwd: string;
  try {
    cwd = process.cwd();
  } catch {
    return null; // the working directory is gone: let the full CLI say so
  }
  const socketPath = serviceSocketPath(configDirFrom(route, env, cwd), env);
  // The socket and its folder must be this user's: never hand a command to someone else's listener.
  if (!socketPath.startsWith('\\\\') && !(await trustedSocket(socketPath))) return null;
  const socket = await connect(socketPath);
  return socket ? relay(socket, argv, cwd) : null;
}

function connect(socketPath: string): Promise<net.Socket | null> {
  return new Promise((resolve) => {
    const socket = net.connect(socketPath);
    socket.once('error', () => resolve(null));
    socket.once('connect', () => {
      socket.removeAllListeners('error');
      resolve(socket);
    });
  });
}

type Message = Record<string, unknown>;
const isObject = (v: unknown): v is Message => typeof v === 'object' && v !== null && !Array.isArray(v);
const errorText = (e: unknown) => (isObject(e) && typeof e.message === 'string' ? e.message : 'no reason given');

function relay(socket: net.Socket, argv: string[], cwd: string): Promise<number | null> {
  const io = processIo();
  return new Promise((resolve) => {
    let calling = false;
    /** Whether any of the command's output or questions reached this terminal: then it cannot be run again here. */
    let started = false;
    let done = false;
    let nextAnswerId = CALL_ID + 1;
    const finish = (code: number | null) => {
      if (done) return;
      done = true;
      socket.destroy();
      resolve(code);
    };
    // Before the command was handed over, any trouble means: run it in this process. After, it
    // may have done something already, so it is never run twice: say what happened instead.
    const fail = (why: string) => {
      if (done) return;
      if (!calling) return finish(null);
      io.err(`deskpilot: ${why}\n`);
      finish(EXIT.failed);
    };

    const onCallMessage = (m: Message) => {
      if (m.id === CALL_ID && typeof m.cli === 'string' && typeof m.text === 'string') {
        started = true;
        if (m.cli === 'out') return io.out(m.text);
        if (m.cli === 'err') return io.err(m.text);
        if (m.cli === 'ask') {
          return void io.ask(m.text).then(
            (line) => writeLine(socket, { id: nextAnswerId++, method: 'cli.answer', params: { call: CALL_ID, line } }),
            // The terminal failed: said as the CLI says it in its own process; the service's command ends with the connection.
            (e: unknown) => fail(e instanceof Error ? e.message : String(e)),
          );
        }
      } else if (m.id === CALL_ID && m.ok === true && isObject(m.result) && Number.isInteger(m.result.exit_code)) {
        return finish(m.result.exit_code as number);
      } else if (m.id === CALL_ID && m.ok === false) {
        // Refused before anything ran (the service checks the call first): this process runs it.
        if (!started) return finish(null);
        return fail(`the DeskPilot service failed: ${errorText(m.error)}`);
      } else if (typeof m.id === 'number' && m.id > CALL_ID && typeof m.ok === 'boolean') {
        // The service's receipt for an answer.
        if (m.ok === false) fail(`the DeskPilot service did not take the answer: ${errorText(m.error)}`);
        return;
      }
      fail('the DeskPilot service sent a message this CLI does not understand; restart the service after updating');
    };

    readLines(
      socket,
      MAX_SERVICE_LINE,
      (value) => {
        if (!isObject(value)) return fail('the DeskPilot service sent something that is not a message');
        onCallMessage(value);
      },
      (why) => fail(`the DeskPilot service sent ${why}`),
    );
    socket.on('error', () => undefined); // 'close' follows and says it
    socket.on('close', () => fail('the DeskPilot service closed the connection before the command finished (it may have stopped)'));
    // The call goes out at once, with this client's build: a service of another build refuses it
    // before running anything (no hello round trip first).
    calling = true;
    const columns = { out: io.helpWidth?.('out'), err: io.helpWidth?.('err') };
    writeLine(socket, { id: CALL_ID, method: 'cli', params: { build: BUILD_ID, argv, cwd, interactive: io.interactive(), columns } });
  });
}
