import type { ReactNode } from 'react';
import { AgentConfirmDialog } from '../components/agent-confirm-dialog';
import { ConfirmDialog } from '../components/confirm-dialog';
import { useEscape } from '../hooks/use-escape';
import { useOnShow } from '../hooks/use-on-show';
import { useUiEvent } from '../hooks/use-ui-event';
import { useAgentStore } from '../state/agent-store';
import { useCommandStore } from '../state/command-store';

// What the launcher and the popover share: Esc handling, refresh on show, agent mode's pushes,
// and the confirmation dialogs (closing things; the agent's safety questions) over an inert window.

export function CommandSurface({ className, presets, children }: { className: string; presets: boolean; children: ReactNode }) {
  useEscape();
  useOnShow({ presets });
  useUiEvent('agent:update', (view) => useAgentStore.getState().receive(view));
  const phase = useCommandStore((s) => s.phase);
  const agentRun = useAgentStore((s) => s.view?.runId ?? '');
  const agentQuestion = useAgentStore((s) => s.view?.confirm?.question ?? null);
  const confirming = phase.kind === 'confirm' || agentQuestion !== null;
  return (
    <>
      <main className={className} inert={confirming}>
        {children}
      </main>
      {phase.kind === 'confirm' ? (
        <ConfirmDialog key={phase.id} items={phase.items} device={phase.device} />
      ) : (
        agentQuestion !== null && <AgentConfirmDialog key={`${agentRun}:${agentQuestion}`} question={agentQuestion} />
      )}
    </>
  );
}
