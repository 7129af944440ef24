import { useEffect, useRef } from 'react';
import type { IpcEvent } from '../../../protocol/ipc-channels';
import { onUiEvent } from '../lib/ui-events';

/** Calls the latest `listener` on each push of `event` from main. */
export function useUiEvent(event: IpcEvent, listener: () => void): void {
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => onUiEvent(event, () => latest.current()), [event]);
}
