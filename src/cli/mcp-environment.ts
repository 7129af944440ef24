import os from 'node:os';

// What `deskpilot mcp` says when it has neither a running service nor a desktop session of its
// own: an MCP client may start it with only PATH and HOME, and an engine in this process then
// cannot see any window. The fix is the client's to make, so the message names the variables.

/** null when this process can reach the desk (or the platform needs no session variables). */
export function missingDesktopHint(configDir: string, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string | null {
  if (platform === 'darwin' || platform === 'win32') return null;
  if (env.DISPLAY || env.WAYLAND_DISPLAY || env.SWAYSOCK) return null;
  const uid = os.userInfo().uid;
  return (
    `no DeskPilot service is running for ${configDir}, and this process has no desktop session (DISPLAY and WAYLAND_DISPLAY are not set), so windows cannot be reached. ` +
    'Start `deskpilot service` in your desktop session (this server then finds it by itself), or pass the session\'s variables in the MCP client\'s config for this server, ' +
    `e.g. "env": {"DISPLAY": ":0", "XDG_RUNTIME_DIR": "/run/user/${uid}"} (on Wayland, WAYLAND_DISPLAY too).`
  );
}
