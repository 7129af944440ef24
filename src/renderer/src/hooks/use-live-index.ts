import { useEffect } from 'react';
import { useLiveStore } from '../state/live-store';
import { useUiEvent } from './use-ui-event';

/** The launcher's desk index: fetched when the page loads and each time the launcher is shown; replaced when main pushes a changed desk. */
export function useLiveIndex(): void {
  useEffect(() => {
    void useLiveStore.getState().loadIndex();
  }, []);
  useUiEvent('ui:show', () => void useLiveStore.getState().loadIndex());
  useUiEvent('launcher:index', (index) => useLiveStore.getState().receiveIndex(index));
}
