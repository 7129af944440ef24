import { ConfirmTokenStore, type ConfirmTokens } from '../app/confirm-tokens';
import type { Desk } from '../app/desk';
import { callService } from '../app/remote-desk';
import { DeskPilotError } from '../engine/errors';
import type { ServiceClient } from '../platform/service/socket-client';
import type { HeldConfirm, HeldToken } from '../protocol/confirm-token';

// Where `deskpilot mcp` keeps confirm tokens: in the warm service when its desk is served there
// (so the client's next call, maybe through a new MCP process, finds the batch), else here. A
// token held by one never turns up in the other: taking it where it is not held finds nothing,
// and the tool then says to ask again.

export function mcpConfirmTokens(desk: Desk, connect: () => Promise<ServiceClient | null>): ConfirmTokens {
  const here = new ConfirmTokenStore();
  const inService = async <T>(use: (client: ServiceClient) => Promise<T>): Promise<T> => {
    const client = await connect();
    if (!client) throw new DeskPilotError('the DeskPilot service stopped answering; ask again', 'unavailable');
    try {
      return await use(client);
    } finally {
      client.close();
    }
  };
  return {
    hold: (entry: HeldConfirm): Promise<HeldToken> => (desk.via === 'service' ? inService((c) => callService(c, 'confirm.hold', { entry })) : here.hold(entry)),
    take: async (token: string): Promise<HeldConfirm | null> =>
      desk.via === 'service' ? (await inService((c) => callService(c, 'confirm.take', { token }))).entry : here.take(token),
  };
}
