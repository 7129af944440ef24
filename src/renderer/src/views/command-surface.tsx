import type { ReactNode } from 'react';
import { ConfirmDialog } from '../components/confirm-dialog';
import { useEscape } from '../hooks/use-escape';
import { useOnShow } from '../hooks/use-on-show';
import { useCommandStore } from '../state/command-store';

// What the launcher and the popover share: Esc handling, refresh on show, and the
// confirmation dialog over an inert window.

export function CommandSurface({ className, presets, children }: { className: string; presets: boolean; children: ReactNode }) {
  useEscape();
  useOnShow({ presets });
  const phase = useCommandStore((s) => s.phase);
  const confirming = phase.kind === 'confirm';
  return (
    <>
      <main className={className} inert={confirming}>
        {children}
      </main>
      {confirming && <ConfirmDialog key={phase.id} items={phase.items} />}
    </>
  );
}
