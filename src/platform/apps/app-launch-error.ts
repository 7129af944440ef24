import { DeskPilotError } from '../../engine/errors';

/** An app could not be started; the message names the app and why ("could not start XTerm: xterm-nope not found"). */
export class AppLaunchError extends DeskPilotError {
  constructor(
    readonly appName: string,
    reason: string,
  ) {
    super(`could not start ${appName}: ${reason}`, 'app_launch_failed');
  }
}
