/**
 * The environment an app is started with: DeskPilot's own, minus what only makes sense for
 * DeskPilot itself. Under Electron, ELECTRON_RUN_AS_NODE would make any Electron app the user
 * launches (VS Code, Slack, …) start as a bare Node.js instead.
 */
export function launchEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out = { ...env };
  delete out.ELECTRON_RUN_AS_NODE;
  delete out.ELECTRON_NO_ATTACH_CONSOLE;
  return out;
}
