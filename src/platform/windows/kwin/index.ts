// The KWin (KDE Plasma, Wayland) window backend; wire-engine loads it on demand.
export { createKwinWindowBackend, kwinUnavailableReason, type KwinWindowBackendOptions } from './kwin-backend';
