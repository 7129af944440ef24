import { useEffect, useState } from 'react';
import { LiveRegion } from './components/live-region';
import { useUiEvent } from './hooks/use-ui-event';
import { viewFromSearch, type View } from './lib/view';
import { LauncherView } from './views/launcher-view';
import { PopoverView } from './views/popover-view';
import { SettingsView } from './views/settings-view';

// One renderer, three windows: ?view=launcher | popover (default) | settings. The popover's
// gear opens settings in place, with Back to return.

export function App() {
  const initial = viewFromSearch(window.location.search);
  const [view, setView] = useState<View>(initial);

  useEffect(() => {
    document.documentElement.dataset.view = view;
  }, [view]);

  // The tray popover always opens on its main page, even if settings were left open.
  useUiEvent('ui:show', () => {
    if (initial === 'popover') setView('popover');
  });

  return (
    <>
      {view === 'launcher' && <LauncherView />}
      {view === 'popover' && <PopoverView openSettings={() => setView('settings')} />}
      {view === 'settings' && <SettingsView onBack={initial === 'popover' ? () => setView('popover') : undefined} />}
      <LiveRegion />
    </>
  );
}
