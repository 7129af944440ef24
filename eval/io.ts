// How the eval runners print and read their environment, so tests can run them in-process.
// Its own file: the planner eval and the agent eval both use it, and neither imports the other.
export interface Io {
  out: (line: string) => void;
  err: (line: string) => void;
  env: NodeJS.ProcessEnv;
}
