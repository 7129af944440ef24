import { useEffect } from 'react';
import { usePresetsStore } from '../state/presets-store';
import { useInputStore } from '../state/input-store';
import { useStatusStore } from '../state/status-store';
import { useUiEvent } from './use-ui-event';

/** On load and each time main shows the window: focus the field, fetch status (and presets). */
export function useOnShow({ presets }: { presets: boolean }): void {
  const refresh = (): void => {
    useInputStore.getState().requestFocus();
    void useStatusStore.getState().refresh();
    if (presets) void usePresetsStore.getState().refresh();
  };
  useEffect(refresh, [presets]);
  useUiEvent('ui:show', refresh);
}
