import { SERVICE_RESULTS } from '../protocol/service';
import type { ConsentRequest } from '../protocol/remote-consent';
import type { ConfigFlags } from '../platform/config/load-config';
import { connectService, type ServiceClient } from '../platform/service/socket-client';
import { serviceSocketPath } from '../platform/service/socket-path';
import { EXIT } from './exit-codes';
import type { Io } from './io';
import { configDirFrom } from './open-desk';

// `deskpilot devices requests | approve ID | deny ID`: this desk's user answering another
// device's request to close tabs, quit apps or undo here. The requests wait in the warm
// service (which runs this desk's device worker) until answered or until their TTL passes;
// these commands ask it over its socket.

async function withService(flags: ConfigFlags, io: Io, fn: (c: ServiceClient) => Promise<number>): Promise<number> {
  const socketPath = serviceSocketPath(configDirFrom(flags));
  const client = await connectService(socketPath);
  if (!client) {
    io.err(`deskpilot: no DeskPilot service is running (socket ${socketPath}); requests from your other devices wait in it — start it with \`deskpilot service\`\n`);
    return EXIT.failed;
  }
  try {
    return await fn(client);
  } finally {
    client.close();
  }
}

const left = (deadline: string) => {
  const s = Math.max(0, Math.round((Date.parse(deadline) - Date.now()) / 1000));
  return s >= 90 ? `${Math.round(s / 60)} min` : `${s} s`;
};

function describe(q: ConsentRequest): string {
  const lines = [`${q.id}  from "${q.from.name}"${q.asked_by ? ` (asked by ${q.asked_by} there)` : ''}, ${left(q.deadline)} left to answer`];
  for (const item of q.items) lines.push(`  ${item.summary}`);
  const rest = q.plan.filter((p) => !q.items.some((i) => i.summary === p));
  if (rest.length) lines.push(`  and also: ${rest.join('; ')}`);
  return lines.join('\n') + '\n';
}

export async function runDevicesRequests(flags: ConfigFlags, o: { json: boolean }, io: Io): Promise<number> {
  return withService(flags, io, async (client) => {
    const r = await client.request('consent.list', {});
    if (!r.ok) {
      io.err(`deskpilot: ${r.error?.message ?? 'the service did not answer'}\n`);
      return EXIT.failed;
    }
    const { requests } = SERVICE_RESULTS['consent.list'].parse(r.result);
    if (o.json) {
      io.out(JSON.stringify({ requests }, null, 2) + '\n');
      return EXIT.ok;
    }
    if (requests.length === 0) {
      io.out('No requests from other devices wait for an answer.\n');
      return EXIT.ok;
    }
    io.out(`${requests.length} request${requests.length === 1 ? '' : 's'} from other devices (answer with \`deskpilot devices approve ID\` or \`deny ID\`):\n`);
    for (const q of requests) io.out(describe(q));
    return EXIT.ok;
  });
}

export async function runDevicesAnswer(flags: ConfigFlags, id: string, yes: boolean, io: Io): Promise<number> {
  return withService(flags, io, async (client) => {
    const r = await client.request('consent.answer', { id, yes });
    if (!r.ok) {
      io.err(`deskpilot: ${r.error?.message ?? 'the service did not answer'}\n`);
      return r.error?.code === 'stale' || r.error?.code === 'bad_request' ? EXIT.invalid : EXIT.failed;
    }
    io.out(yes ? `Approved ${id}: it runs now on this desk.\n` : `Denied ${id}: nothing was run; the other device is told.\n`);
    return EXIT.ok;
  });
}
