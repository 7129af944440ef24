import type { Session, WebContents } from 'electron';
import { withNativeDialog } from './native-dialogs';

// Web permissions for our own pages: the microphone (push-to-talk) and writing to the
// clipboard; everything else, and anything for a page that is not ours, is refused. On
// macOS the microphone also needs the OS's consent: that prompt is asked for here, counted
// as a native dialog so the popover does not hide behind it.

export type PermissionDecision = 'allow' | 'deny' | 'ask-os';

export function decidePermission(permission: string, ours: boolean, mediaTypes: readonly string[], platform: NodeJS.Platform): PermissionDecision {
  if (!ours) return 'deny';
  if (permission === 'clipboard-sanitized-write') return 'allow';
  if (permission !== 'media') return 'deny';
  if (mediaTypes.length === 0 || mediaTypes.some((t) => t !== 'audio')) return 'deny';
  return platform === 'darwin' ? 'ask-os' : 'allow';
}

export function installPermissions(
  session: Session,
  o: { isOurs(contents: WebContents): boolean; platform: NodeJS.Platform; askMicrophone(): Promise<boolean> },
): void {
  session.setPermissionRequestHandler((contents, permission, callback, details) => {
    const mediaTypes = 'mediaTypes' in details ? (details.mediaTypes ?? []) : [];
    const decision = decidePermission(permission, o.isOurs(contents), mediaTypes, o.platform);
    if (decision !== 'ask-os') return callback(decision === 'allow');
    withNativeDialog(() => o.askMicrophone()).then(callback, () => callback(false));
  });
  session.setPermissionCheckHandler((contents, permission) => {
    if (!contents || !o.isOurs(contents)) return false;
    return permission === 'media' || permission === 'clipboard-sanitized-write';
  });
}
