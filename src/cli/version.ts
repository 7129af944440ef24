// DeskPilot's version, as `deskpilot --version` prints it: scripts/build-cli.mjs compiles in
// package.json's version, so printing it reads no file. Running from the sources (unit tests
// calling main() directly) there is no build.

declare const __DESKPILOT_VERSION__: string | undefined;

export const VERSION: string = typeof __DESKPILOT_VERSION__ === 'string' ? __DESKPILOT_VERSION__ : '0.0.0-unbuilt';
