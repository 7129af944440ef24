// The few DOM pieces the page-side scripts use, typed here: the stand-in is compiled with the
// Node project's settings (no DOM library), and these scripts are bundled for the page.

export interface PageEvent {
  detail: unknown;
}

export interface PageDocument {
  addEventListener(type: string, listener: (event: PageEvent) => void): void;
  dispatchEvent(event: unknown): boolean;
}

export interface PageWorld {
  document: PageDocument;
  CustomEvent: new (type: string, init: { detail: unknown }) => unknown;
  btoa(s: string): string;
  atob(s: string): string;
}

export const world = globalThis as unknown as PageWorld & Record<string, unknown>;
