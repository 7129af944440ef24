// The launcher's size, free of Electron (the web test harness sizes its page the same way).
// It is 640 wide and as tall as its content: the field alone at least, at most the tallest
// it grows (the page scrolls its middle beyond that).

export const LAUNCHER_SIZE = { width: 640, height: 420 };
export const LAUNCHER_HEIGHTS = { min: 64, max: 640 };

/** A height the page asked for (window:fit), kept between the launcher's bounds. */
export const fittedHeight = (height: number): number => Math.round(Math.min(LAUNCHER_HEIGHTS.max, Math.max(LAUNCHER_HEIGHTS.min, height)));
