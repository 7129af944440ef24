import type * as Electron from 'electron';
import { app } from './app';
import { StandInBrowserWindow } from './browser-window';
import type { StandInReturning } from './electron-types';
import { ipcMain } from './ipc-main';
import { dialog, globalShortcut, nativeImage, safeStorage, session, shell, systemPreferences } from './misc';
import { screen } from './screen';
import { StandInMenu, StandInTray } from './tray';

// The module the built main process gets when it requires 'electron' (launch.ts points the
// name here). Tests only: it is never shipped and nothing under src/ imports it. Each member
// is checked against Electron's own declarations (electron-types.ts).

// BrowserWindow's statics: Electron's parameters; they answer with the stand-in's windows.
StandInBrowserWindow satisfies StandInReturning<typeof Electron.BrowserWindow, 'getAllWindows' | 'getFocusedWindow'>;

export { app, dialog, globalShortcut, ipcMain, nativeImage, safeStorage, screen, session, shell, systemPreferences };
export { StandInBrowserWindow as BrowserWindow, StandInMenu as Menu, StandInTray as Tray };
