import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { RendererApi } from '../../../protocol/ipc';

// Push-to-talk recording in the renderer: the microphone through getUserMedia, recorded with
// MediaRecorder (Opus in WebM where available), sent to main as bytes over
// 'voice:transcribe', which answers with the text. Browser APIs only, no dependencies, so it
// runs the same in Electron and in the web test harness. The microphone is released as soon
// as recording ends, whatever happens.

export type VoiceRecorderState = 'idle' | 'recording' | 'transcribing' | 'error';

export interface VoiceRecorder {
  state: VoiceRecorderState;
  /** One sentence for the person, set in the 'error' state. */
  error: string | null;
  /** Recording works here: the page can reach the microphone and MediaRecorder exists. */
  supported: boolean;
  /** Asks for the microphone and starts recording; on failure the state is 'error'. */
  start(): Promise<void>;
  /** Stops recording and resolves with the transcribed text (null when there is none; see `error`). */
  stop(): Promise<string | null>;
}

export interface VoiceRecorderOptions {
  /** Recording stops by itself after this long (default 30 s) and is transcribed. */
  maxDurationMs?: number;
  /**
   * Receives the text of a recording that stopped by itself (time limit, microphone gone).
   * Without it, that text goes to the next stop() call — or to the stop() that is already
   * waiting for it.
   */
  onAutoStop?(text: string | null): void;
}

export const MAX_RECORDING_MS = 30_000;

/** In order of preference; Opus in WebM is what Chromium records best and Whisper servers read. */
const PREFERRED_TYPES = ['audio/webm;codecs=opus', 'audio/webm', 'audio/ogg;codecs=opus', 'audio/ogg', 'audio/mp4', 'audio/mpeg', 'audio/wav'];

const MESSAGES = {
  unsupported: 'Voice input is not available here: this window cannot record from a microphone.',
  denied:
    'DeskPilot needs the microphone: allow it in System Settings → Privacy & Security → Microphone (macOS) or your browser/OS settings.',
  noDevice: 'No microphone was found: connect one or choose an input device in your system’s sound settings, then try again.',
  busy: 'The microphone could not be started — another app may be using it; close that app and try again.',
  empty: 'I didn’t catch anything — try again closer to the microphone.',
  noBridge: "DeskPilot's background service is not connected. Restart DeskPilot.",
} as const;

function isSupported(): boolean {
  return (
    typeof navigator !== 'undefined' &&
    typeof navigator.mediaDevices?.getUserMedia === 'function' &&
    typeof MediaRecorder !== 'undefined'
  );
}

/** The first preferred type this MediaRecorder can record, or undefined to let it choose. */
function pickMimeType(): string | undefined {
  if (typeof MediaRecorder.isTypeSupported !== 'function') return undefined;
  return PREFERRED_TYPES.find((t) => {
    try {
      return MediaRecorder.isTypeSupported(t);
    } catch {
      return false;
    }
  });
}

/** What 'voice:transcribe' accepts: audio/<subtype>[;params]. Chromium may say video/webm for audio-only WebM. */
function ipcMime(recorded: string | undefined): string {
  const m = (recorded ?? '').trim().replace(/^video\//i, 'audio/').replace(/\s+/g, '');
  return /^audio\/[\w.+-]+(;.*)?$/.test(m) ? m : 'audio/webm';
}

function errorName(e: unknown): string {
  return typeof e === 'object' && e !== null && typeof (e as { name?: unknown }).name === 'string' ? (e as { name: string }).name : '';
}

function errorText(e: unknown): string {
  return e instanceof Error || (typeof e === 'object' && e !== null && typeof (e as { message?: unknown }).message === 'string')
    ? (e as { message: string }).message
    : String(e);
}

/** getUserMedia's failure in words the person can act on. */
function microphoneError(e: unknown): string {
  switch (errorName(e)) {
    case 'NotAllowedError':
    case 'PermissionDeniedError':
    case 'SecurityError':
      return MESSAGES.denied;
    case 'NotFoundError':
    case 'DevicesNotFoundError':
    case 'OverconstrainedError':
      return MESSAGES.noDevice;
    case 'NotReadableError':
    case 'TrackStartError':
    case 'AbortError':
      return MESSAGES.busy;
    default:
      return `The microphone could not be opened (${errorText(e)}) — check your system’s sound settings and try again.`;
  }
}

function stopTracks(stream: MediaStream): void {
  for (const track of stream.getTracks()) {
    try {
      track.stop();
    } catch {
      // already stopped
    }
  }
}

interface Session {
  stream: MediaStream;
  recorder: MediaRecorder;
  chunks: Blob[];
  /** Resolves once the recorder has delivered its last data (its 'stop' event) or failed. */
  stopped: Promise<void>;
  failure: string | null;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** The transcription under way for this recording, once it has stopped. */
  finishing: Promise<string | null> | null;
  /** A stop() call is waiting for `finishing`, so it — not onAutoStop — gets the text. */
  claimed: boolean;
}

export function useVoiceRecorder(options: VoiceRecorderOptions = {}): VoiceRecorder {
  const [supported] = useState(isSupported);
  const [state, setState] = useState<VoiceRecorderState>('idle');
  const [error, setError] = useState<string | null>(null);

  const optionsRef = useRef(options);
  // The latest options for callbacks made earlier; written after render, not during it.
  useLayoutEffect(() => {
    optionsRef.current = options;
  });
  const mounted = useRef(true);
  const session = useRef<Session | null>(null);
  /** A start() is waiting for the microphone; `abandoned` when stop() came first. */
  const starting = useRef<{ abandoned: boolean } | null>(null);
  /** The text of a recording that stopped by itself, kept for the next stop(). */
  const held = useRef<{ text: string | null } | null>(null);

  const set = useCallback((next: VoiceRecorderState, message: string | null = null) => {
    if (!mounted.current) return;
    setState(next);
    setError(message);
  }, []);

  const fail = useCallback(
    (message: string): null => {
      set('error', message);
      return null;
    },
    [set],
  );

  /** Ends the recording, releases the microphone and transcribes what was recorded. */
  const transcribeSession = useCallback(
    async (s: Session): Promise<string | null> => {
      if (s.timer !== undefined) clearTimeout(s.timer);
      set('transcribing');
      try {
        if (s.recorder.state !== 'inactive') s.recorder.stop();
        await s.stopped;
      } catch (e) {
        s.failure ??= `Recording failed (${errorText(e)}) — try again.`;
      } finally {
        stopTracks(s.stream);
      }
      if (s.failure) return fail(s.failure);

      const type = ipcMime(s.recorder.mimeType || s.chunks.find((c) => c.type)?.type);
      const blob = new Blob(s.chunks, { type });
      s.chunks = [];
      if (blob.size === 0) return fail(MESSAGES.empty);
      const api = (window as { api?: RendererApi }).api;
      if (!api) return fail(MESSAGES.noBridge);
      try {
        const audio = new Uint8Array(await blob.arrayBuffer());
        const result = await api.voiceTranscribe({ audio, mime: type });
        if (!result.ok) return fail(result.error);
        const text = result.value.text.trim();
        if (!text) return fail(MESSAGES.empty);
        set('idle');
        return text;
      } catch (e) {
        return fail(`Transcription failed (${errorText(e)}) — try again.`);
      }
    },
    [set, fail],
  );

  const finish = useCallback(
    async (s: Session): Promise<string | null> => {
      try {
        return await transcribeSession(s);
      } finally {
        // Until here a second stop() joins this transcription instead of starting anything.
        if (session.current === s) session.current = null;
      }
    },
    [transcribeSession],
  );

  /** The recording ended without stop(): the time limit, or the microphone went away. */
  const autoStop = useCallback(
    (s: Session) => {
      if (s.finishing || session.current !== s) return;
      s.finishing = finish(s);
      void s.finishing.then((text) => {
        if (s.claimed) return;
        const deliver = optionsRef.current.onAutoStop;
        if (deliver) deliver(text);
        else held.current = { text };
      });
    },
    [finish],
  );

  const start = useCallback(async (): Promise<void> => {
    if (!isSupported()) {
      fail(MESSAGES.unsupported);
      return;
    }
    if (session.current || starting.current) return; // already recording or asking
    held.current = null;
    const attempt = { abandoned: false };
    starting.current = attempt;
    set('idle');

    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (e) {
      if (starting.current === attempt) starting.current = null;
      if (!attempt.abandoned) fail(microphoneError(e));
      return;
    }
    if (starting.current === attempt) starting.current = null;
    if (attempt.abandoned || !mounted.current) {
      stopTracks(stream);
      return;
    }
    if (stream.getAudioTracks().length === 0) {
      stopTracks(stream);
      fail(MESSAGES.noDevice);
      return;
    }

    let recorder: MediaRecorder;
    try {
      const mimeType = pickMimeType();
      recorder = new MediaRecorder(stream, mimeType ? { mimeType } : undefined);
    } catch (e) {
      stopTracks(stream);
      fail(`This system cannot record audio (${errorText(e)}).`);
      return;
    }

    let resolveStopped!: () => void;
    const s: Session = {
      stream,
      recorder,
      chunks: [],
      stopped: new Promise<void>((resolve) => (resolveStopped = resolve)),
      failure: null,
      timer: undefined,
      finishing: null,
      claimed: false,
    };
    recorder.addEventListener('dataavailable', (e: BlobEvent) => {
      if (e.data && e.data.size > 0) s.chunks.push(e.data);
    });
    recorder.addEventListener('error', (e: Event) => {
      const inner = (e as { error?: unknown }).error;
      s.failure ??= `Recording failed (${inner ? errorText(inner) : 'the recorder stopped'}) — try again.`;
      resolveStopped();
      autoStop(s);
    });
    recorder.addEventListener('stop', () => {
      resolveStopped();
      autoStop(s); // a no-op when stop() ended it
    });
    // The microphone unplugged or taken away mid-recording: keep what was said.
    for (const track of stream.getAudioTracks()) {
      track.addEventListener('ended', () => {
        if (recorder.state !== 'inactive') autoStop(s);
      });
    }

    try {
      recorder.start(1000); // a chunk a second, so a crash mid-way still leaves audio
    } catch (e) {
      stopTracks(stream);
      fail(`Recording could not start (${errorText(e)}) — try again.`);
      return;
    }
    session.current = s;
    const maxMs = optionsRef.current.maxDurationMs ?? MAX_RECORDING_MS;
    s.timer = setTimeout(() => autoStop(s), maxMs);
    set('recording');
  }, [set, fail, autoStop]);

  const stop = useCallback(async (): Promise<string | null> => {
    if (starting.current) {
      // Let go before the microphone was granted: nothing was recorded.
      starting.current.abandoned = true;
      starting.current = null;
      set('idle');
      return null;
    }
    const s = session.current;
    if (s) {
      s.claimed = true;
      s.finishing ??= finish(s);
      return s.finishing;
    }
    const h = held.current;
    held.current = null;
    return h ? h.text : null;
  }, [set, finish]);

  useEffect(() => {
    mounted.current = true;
    return () => {
      // Closing the window mid-recording must not leave the microphone on.
      mounted.current = false;
      if (starting.current) starting.current.abandoned = true;
      const s = session.current;
      session.current = null;
      if (s) {
        if (s.timer !== undefined) clearTimeout(s.timer);
        s.claimed = true;
        try {
          if (s.recorder.state !== 'inactive') s.recorder.stop();
        } catch {
          // already stopped
        }
        stopTracks(s.stream);
      }
    };
  }, []);

  return { state, error, supported, start, stop };
}
