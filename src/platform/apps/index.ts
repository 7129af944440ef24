// The app catalogs (AppCatalog port) and the helpers the engine uses with them.
export { AppLaunchError } from './app-launch-error';
export { createAppCatalog } from './create-app-catalog';
export { createMacCatalog, type MacCatalogOptions } from './mac-catalog';
export { createWindowsCatalog, type WindowsCatalogOptions } from './windows-catalog';
export { createXdgCatalog, type XdgCatalogOptions } from './xdg-catalog';
