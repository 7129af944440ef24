import { useEffect, useLayoutEffect, useRef } from 'react';
import type { IpcEvent, IpcEventPayloads } from '../../../protocol/ipc-channels';
import { onUiEvent } from '../lib/ui-events';

/** Calls the latest `listener` on each push of `event` from main. */
export function useUiEvent<E extends IpcEvent>(event: E, listener: (payload: IpcEventPayloads[E]) => void): void {
  const latest = useRef(listener);
  // Written after render, not during it: a render may be thrown away.
  useLayoutEffect(() => {
    latest.current = listener;
  });
  useEffect(() => onUiEvent(event, (payload) => latest.current(payload)), [event]);
}
