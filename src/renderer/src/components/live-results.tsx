import { memo, type CSSProperties, type ReactNode } from 'react';
import { liveRowDevice } from '../lib/devices';
import { MOD_KEY } from '../lib/platform';
import { monogram } from '../live/site';
import type { ItemAction, LiveRow } from '../live/rows';
import { useDeviceStore } from '../state/device-store';
import { useLiveStore } from '../state/live-store';
import { LayoutIcon, PinIcon, SparkIcon, WindowIcon } from './icons';

// The launcher's live list under the field: the plan row (what Enter does with the words) and
// the tabs, apps and presets they match, best first. Focus stays in the field (a combobox):
// the highlighted row is its active descendant, so ↑/↓ and typing never leave the field.

export const LIVE_LIST_ID = 'live-list';
export const rowId = (key: string) => `live-row-${key.replace(/[^\w-]/g, (c) => `_${c.charCodeAt(0)}`)}`;
export const actionId = (key: string, i: number) => `${rowId(key)}-action-${i}`;

/** Said between a row's parts by a screen reader, not shown (the row's name is its content). */
const Pause = () => <span className="sr-only">, </span>;

function Icon({ row }: { row: LiveRow }) {
  if (row.kind === 'plan') {
    return (
      <span className="live-icon is-plan">
        <SparkIcon size={14} />
      </span>
    );
  }
  const e = row.entity;
  if (e.kind === 'tab') {
    const m = monogram(e.tab.domain, e.tab.title);
    return (
      <span className="live-icon favicon" aria-hidden="true" style={{ '--hue': m.hue } as CSSProperties}>
        {m.letter}
      </span>
    );
  }
  return <span className="live-icon">{e.kind === 'preset' ? <LayoutIcon size={14} /> : <WindowIcon size={14} />}</span>;
}

function RowText({ row }: { row: LiveRow }): ReactNode {
  if (row.kind === 'plan') {
    const { title, detail, note } = row.line;
    return (
      <span className="live-text">
        <span className="live-title">
          {title}
          {detail && <span className="live-detail"> · {detail}</span>}
        </span>
        {note && (
          <>
            <Pause />
            <span className={`live-note${note === 'asks first' ? ' is-asks' : ''}`}>{note}</span>
          </>
        )}
      </span>
    );
  }
  return (
    <span className="live-text">
      <span className="live-title" title={row.title}>
        {row.entity.kind === 'tab' && row.entity.tab.pinned && (
          <span className="live-pin">
            <PinIcon />
            <span className="sr-only">Pinned: </span>
          </span>
        )}
        {row.title}
      </span>
      {row.subtitle && (
        <span className="live-sub" title={row.subtitle}>
          <Pause />
          {row.subtitle}
        </span>
      )}
    </span>
  );
}

interface RowProps {
  row: LiveRow;
  i: number;
  on: boolean;
  /** The row's actions while they are open (only on the highlighted row). */
  menu: ItemAction[] | null;
  menuHighlight: number;
  rowDevice: string | null;
  runRow(row: number, action: number): void;
  highlight(row: number): void;
}

/**
 * One row (and its open actions). Rows are the same objects from key press to key press
 * (rows.ts), so a key press re-renders only the rows that are new, moved or (un)highlighted.
 */
const LiveRowItem = memo(function LiveRowItem({ row, i, on, menu, menuHighlight, rowDevice, runRow, highlight }: RowProps) {
  return (
    <>
      <li className="live-item" role="presentation">
        <div
          id={rowId(row.key)}
          role="option"
          aria-selected={on}
          aria-keyshortcuts={i < 9 ? `Control+${i + 1} Meta+${i + 1}` : undefined}
          className={`live-row${on ? ' is-highlighted' : ''}${row.kind === 'plan' ? ' is-plan-row' : ''}`}
          data-kind={row.kind === 'plan' ? 'plan' : row.entity.kind}
          onMouseMove={() => highlight(i)}
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => runRow(i, 0)}
        >
          <Icon row={row} />
          <RowText row={row} />
          {row.kind === 'item' && (
            <span className="live-accessory">
              <Pause />
              {row.accessory}
            </span>
          )}
          {row.kind === 'item' && rowDevice && (
            <span className="live-device" data-device={rowDevice}>
              <Pause />
              {rowDevice}
            </span>
          )}
          {i < 9 && (
            <kbd className="live-shortcut" aria-hidden="true">
              {MOD_KEY}
              {i + 1}
            </kbd>
          )}
        </div>
      </li>
      {/* The row's actions: a group of options in the same list, right under it. */}
      {menu && (
        <li className="live-actions" role="group" aria-label={`Actions: ${row.kind === 'item' ? row.title : ''}`}>
          {menu.map((a, j) => (
            <div
              key={a.action}
              id={actionId(row.key, j)}
              role="option"
              aria-selected={menuHighlight === j}
              className={`live-action${menuHighlight === j ? ' is-highlighted' : ''}${a.destructive ? ' is-destructive' : ''}`}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => runRow(i, j)}
            >
              {a.label}
            </div>
          ))}
        </li>
      )}
    </>
  );
});

export function LiveResults() {
  const list = useLiveStore((s) => s.list);
  const keys = useLiveStore((s) => s.keys);
  const runRow = useLiveStore((s) => s.runRow);
  const highlight = useLiveStore((s) => s.highlight);
  const devices = useDeviceStore((s) => s.devices);
  if (list.rows.length === 0) return null;
  const current = list.rows[keys.highlight];
  const plan = list.rows.find((r) => r.kind === 'plan');
  // With another device around, the listed tabs and windows say whose they are (this computer's).
  const rowDevice = liveRowDevice(devices);

  return (
    <section className="live" aria-label="Matches">
      {/* data-for: the words these rows are for; data-settled: the plan row says what Enter does with them (tests and the bench wait on both). */}
      <ul
        id={LIVE_LIST_ID}
        className="live-list"
        role="listbox"
        aria-label="Matches"
        data-for={plan?.kind === 'plan' ? plan.text : undefined}
        data-settled={plan?.kind === 'plan' && plan.settled ? 'true' : 'false'}
      >
        {list.rows.map((row, i) => {
          const on = i === keys.highlight;
          return (
            <LiveRowItem
              key={row.key}
              row={row}
              i={i}
              on={on}
              menu={on && keys.menu && row.kind === 'item' ? row.actions : null}
              menuHighlight={on && keys.menu ? keys.menu.highlight : -1}
              rowDevice={rowDevice}
              runRow={runRow}
              highlight={highlight}
            />
          );
        })}
      </ul>
      {list.more > 0 && (
        <p className="live-more">
          {list.more} more {list.more === 1 ? 'match' : 'matches'} — add a word to narrow them down.
        </p>
      )}
      <p className="live-keys" aria-hidden="true">
        <kbd>↑</kbd>
        <kbd>↓</kbd> choose <kbd>↵</kbd> {current?.kind === 'item' ? (keys.menu ? 'run action' : current.actions[0]!.label.toLowerCase()) : 'run'}
        {current?.kind === 'item' && !keys.menu && (
          <>
            <kbd>⇥</kbd> actions
          </>
        )}
        {keys.menu && (
          <>
            <kbd>←</kbd> back
          </>
        )}
        <kbd>{MOD_KEY}1</kbd>…<kbd>9</kbd> run directly
      </p>
    </section>
  );
}

/**
 * The field's combobox attributes while the list shows. Selected as plain values, so the field
 * renders again only when they change, not whenever the list does (a preview that arrives and
 * leaves the highlighted row where it was changes neither).
 */
export function useLiveComboboxProps(): Record<string, string | boolean | undefined> {
  const open = useLiveStore((s) => s.list.rows.length > 0);
  const active = useLiveStore(({ list, keys }) => {
    const row = list.rows[keys.highlight];
    if (!row) return undefined;
    return keys.menu ? actionId(row.key, keys.menu.highlight) : rowId(row.key);
  });
  return {
    role: 'combobox',
    'aria-expanded': open,
    'aria-controls': open ? LIVE_LIST_ID : undefined,
    'aria-autocomplete': 'list',
    'aria-activedescendant': active,
  };
}
