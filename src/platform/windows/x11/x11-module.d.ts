// The `x11` package ships no types. This declares only the part of its API that this backend
// uses, as observed in x11 4.2.x (lib/xcore.js, lib/corereqs.js).
declare module 'x11' {
  import type { EventEmitter } from 'node:events';

  export interface XScreen {
    root: number;
    pixel_width: number;
    pixel_height: number;
  }

  export interface XDisplay {
    screen: XScreen[];
    client: XClient;
  }

  /** An X protocol error as the package reports it (error code, bad value, request opcodes). */
  export interface XError extends Error {
    error: number;
    badParam: number;
    majorOpcode: number;
    minorOpcode: number;
    seq: number;
  }

  /**
   * Reply callbacks. For a failed request the return value says whether the error was
   * handled: anything falsy makes the client emit it as 'error' as well.
   */
  export type XCallback<T> = (err: XError | null | undefined, result: T) => boolean | void;

  export interface XProperty {
    /** Type atom; 0 (None) when the property does not exist. */
    type: number;
    format: number;
    bytesAfter: number;
    data: Buffer;
  }

  export interface XGeometry {
    windowid: number;
    xPos: number;
    yPos: number;
    width: number;
    height: number;
    borderWidth: number;
  }

  export interface XTranslated {
    sameScreen: number;
    child: number;
    destX: number;
    destY: number;
  }

  export interface XExtensionInfo {
    present: number;
    majorOpcode: number;
    firstEvent: number;
    firstError: number;
  }

  export interface XWindowAttributes {
    mapState: number;
    overrideRedirect: number;
  }

  export interface XineramaScreen {
    x: number;
    y: number;
    width: number;
    height: number;
  }

  export interface XineramaExtension {
    QueryScreens(cb: XCallback<XineramaScreen[]>): void;
  }

  /** Reply unpacker, callback: the shape of the client's pending-reply table entries. */
  export type XReplyHandler = [(buf: Buffer, detail: number) => unknown, XCallback<never>];

  export interface XClient extends EventEmitter {
    display: XDisplay;
    /** Name → atom cache. By default the package's module-level object, shared by all clients. */
    atoms: Record<string, number>;
    atom_names: Record<number, string>;
    seq_num: number;
    replies: Record<number, XReplyHandler>;
    pack_stream: { put(packet: Buffer): unknown; submit(expectsReply: boolean): boolean };
    stream: { destroyed?: boolean; on(event: string, listener: (...args: unknown[]) => void): unknown };

    InternAtom(onlyIfExists: boolean, name: string, cb: XCallback<number>): void;
    GetAtomName(atom: number, cb: XCallback<string>): void;
    GetProperty(
      del: number,
      wid: number,
      property: number,
      type: number,
      longOffset: number,
      longLength: number,
      cb: XCallback<XProperty>,
    ): void;
    GetGeometry(drawable: number, cb: XCallback<XGeometry>): void;
    GetWindowAttributes(wid: number, cb: XCallback<XWindowAttributes>): void;
    TranslateCoordinates(src: number, dst: number, x: number, y: number, cb: XCallback<XTranslated>): void;
    QueryExtension(name: string, cb: XCallback<XExtensionInfo>): void;
    GetInputFocus(cb: XCallback<unknown>): void;
    SendClientMessage(
      destination: number,
      wid: number,
      messageType: number,
      format: 8 | 16 | 32,
      data: number[],
      eventMask: number,
      cb: XCallback<void>,
    ): void;
    require(name: 'xinerama', cb: (err: Error | null, ext: XineramaExtension) => void): void;
    close(cb?: (err?: Error) => void): void;
    terminate(): void;
  }

  export interface CreateClientOptions {
    display?: string;
    /** Batch outgoing requests; `flushOnReply: false` lets a burst of reply requests leave in one write. */
    bufferRequests?: boolean | { flushOnReply?: boolean; maxDelay?: number; maxSize?: number };
    disableBigRequests?: boolean;
  }

  /** Event mask bits by name (SubstructureRedirect, StructureNotify, ...). */
  export const eventMask: { SubstructureRedirect: number; SubstructureNotify: number; StructureNotify: number; PropertyChange: number };

  export function createClient(
    options: CreateClientOptions,
    cb: (err: Error | undefined | null, display: XDisplay) => void,
  ): XClient;
}
