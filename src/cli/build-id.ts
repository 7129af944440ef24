// Which build of the CLI this is: scripts/build-cli.mjs replaces the identifier with a hash of
// the built files. The thin client runs a command in the service only when the service runs
// the same build, so what a command does never depends on which process ran it. Running from
// the sources (tests under tsx) there is no build: null.

declare const __DESKPILOT_BUILD_ID__: string | undefined;

export const BUILD_ID: string | null = typeof __DESKPILOT_BUILD_ID__ === 'string' ? __DESKPILOT_BUILD_ID__ : null;
