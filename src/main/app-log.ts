import log from 'electron-log/node';
import path from 'node:path';

// The Electron app's log. An app started at login has no terminal, so what it says goes to a
// file: app.log in DeskPilot's state folder (~/.local/state/deskpilot on Linux; on macOS and
// Windows the same folder as the config), kept to 1 MiB: a full one is moved to app.old.log.
// electron-log's Node flavour: the main process needs none of its Electron IPC, and this way it
// also runs (and is tested) in plain Node. Before the folder is known, lines go to the console only.

export const APP_LOG_NAME = 'app.log';
const MAX_BYTES = 1024 * 1024;

const logger = log.create({ logId: 'deskpilot-app' });
logger.transports.file.level = false;

/** Sends the log to app.log in `folder` from now on (and still to the console); returns the file. */
export function logToFolder(folder: string): string {
  const file = path.join(folder, APP_LOG_NAME);
  logger.transports.file.resolvePathFn = () => file;
  logger.transports.file.maxSize = MAX_BYTES;
  logger.transports.file.level = 'info';
  return file;
}

export const appLog = {
  info: (message: string) => logger.info(message),
  warn: (message: string) => logger.warn(message),
  error: (message: string) => logger.error(message),
};
