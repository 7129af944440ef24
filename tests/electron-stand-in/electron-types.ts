// How the stand-in is held to Electron's own declarations (node_modules/electron/electron.d.ts):
// every member it implements has Electron's parameter and return types, so a change in Electron's
// API, or a slip here, fails the typecheck. A method that returns its own object for chaining
// (`this`, e.g. ipcRenderer.on) may return the stand-in instead of the whole Electron type.
// (An overloaded member is checked against its last overload.)

export type StandIn<T, K extends keyof T> = {
  [P in K]: T[P] extends (...args: infer A) => infer R ? (...args: A) => R extends T ? unknown : R : T[P];
};

/**
 * Members whose results are Electron objects the stand-in makes its own (a window, a menu): their
 * parameters are Electron's; what they return is the stand-in's.
 */
export type StandInReturning<T, K extends keyof T> = {
  [P in K]: T[P] extends (...args: infer A) => unknown ? (...args: A) => unknown : T[P];
};
