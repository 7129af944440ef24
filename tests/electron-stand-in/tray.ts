import { EventEmitter } from 'node:events';
import type * as Electron from 'electron';
import type { StandIn, StandInReturning } from './electron-types';
import { recordCall } from './runtime';

// Tray and Menu: what main put in the menu bar / tray is kept as it was given, and the test
// clicks it (tray.click(), a menu item by its label) as a person would.

export class StandInMenu {
  readonly items: Electron.MenuItemConstructorOptions[];

  constructor(items: Electron.MenuItemConstructorOptions[]) {
    this.items = items;
  }

  static buildFromTemplate(template: Array<Electron.MenuItemConstructorOptions | Electron.MenuItem>): StandInMenu {
    recordCall('Menu.buildFromTemplate', template.map((i) => i.label ?? i.type ?? ''));
    return new StandInMenu(template as Electron.MenuItemConstructorOptions[]);
  }

  /** The enabled item with this label. */
  item(label: string): Electron.MenuItemConstructorOptions {
    const item = this.items.find((i) => i.label === label);
    if (!item) throw new Error(`the menu has no item "${label}" (it has: ${this.items.map((i) => i.label ?? `(${i.type})`).join(', ')})`);
    if (item.enabled === false) throw new Error(`"${label}" is disabled`);
    return item;
  }

  /** Clicks the item with this label, as Electron calls `click(menuItem, window, event)`. */
  click(label: string): void {
    const item = this.item(label);
    recordCall('menu click', label);
    item.click?.(item as unknown as Electron.MenuItem, undefined, {} as Electron.KeyboardEvent);
  }
}

// Parameters checked against Electron's own (the menu returned is the stand-in's).
StandInMenu satisfies StandInReturning<typeof Electron.Menu, 'buildFromTemplate'>;

export const trays: StandInTray[] = [];

export class StandInTray extends EventEmitter implements StandIn<Electron.Tray, 'setToolTip' | 'popUpContextMenu' | 'getBounds' | 'destroy' | 'isDestroyed'> {
  tooltip = '';
  contextMenu: StandInMenu | null = null;
  private destroyed = false;

  constructor(readonly image: Electron.NativeImage | string) {
    super();
    recordCall('new Tray', typeof image === 'string' ? image : ((image as unknown as { path?: string }).path ?? '[image]'));
    trays.push(this);
  }

  setToolTip(toolTip: string): void {
    recordCall('tray.setToolTip', toolTip);
    this.tooltip = toolTip;
  }

  setContextMenu(menu: Electron.Menu | null): void {
    recordCall('tray.setContextMenu', menu ? (menu as unknown as StandInMenu).items.map((i) => i.label ?? i.type ?? '') : null);
    this.contextMenu = menu as unknown as StandInMenu | null;
  }

  popUpContextMenu(menu?: Electron.Menu, position?: Electron.Point): void {
    recordCall('tray.popUpContextMenu', position);
    if (menu) this.contextMenu = menu as unknown as StandInMenu;
  }

  getBounds(): Electron.Rectangle {
    // Linux reports none (Electron gives zeros there); main does not ask on Linux.
    return { x: 0, y: 0, width: 0, height: 0 };
  }

  destroy(): void {
    recordCall('tray.destroy');
    this.destroyed = true;
  }

  isDestroyed(): boolean {
    return this.destroyed;
  }

  /** A left click on the icon: Electron's 'click' with the icon's bounds and the pointer. */
  click(position: Electron.Point): void {
    this.emit('click', { preventDefault() {}, defaultPrevented: false }, this.getBounds(), position);
  }
}

// setContextMenu takes Electron's Menu; checked for its parameters.
StandInTray.prototype satisfies StandInReturning<Electron.Tray, 'setContextMenu'>;

export class StandInNativeImage implements StandIn<Electron.NativeImage, 'isEmpty' | 'setTemplateImage' | 'isTemplateImage'> {
  private template = false;

  constructor(
    readonly path: string,
    private readonly exists: boolean,
  ) {}

  isEmpty(): boolean {
    return !this.exists;
  }

  setTemplateImage(option: boolean): void {
    recordCall('nativeImage.setTemplateImage', option);
    this.template = option;
  }

  isTemplateImage(): boolean {
    return this.template;
  }
}
