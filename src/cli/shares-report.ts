// What `switchboard check` says about the HTTP face's shares per principal (limits.perPrincipal):
// the values in force and, where a share is as large as the pool it divides, that it cannot keep
// one principal from taking the whole pool (only idle holdings are then shed for others).

import type { GatewayConfig } from '../config/types.js';

export interface SharesReport {
  perPrincipal: GatewayConfig['limits']['perPrincipal'];
  /** One line per share that does not bound what it is meant to. */
  notes: string[];
}

export function sharesReport(limits: GatewayConfig['limits']): SharesReport {
  const p = limits.perPrincipal;
  const notes: string[] = [];
  const whole = (share: string, value: number, pool: string, size: number, then: string) => {
    if (value >= size) notes.push(`perPrincipal.${share} (${value}) is not below ${pool} (${size}): one principal can take them all; ${then}`);
  };
  whole('sessions', p.sessions, 'maxSessions', limits.maxSessions, 'only its idle sessions are ended for others');
  whole('connections', p.connections, 'maxConnections', limits.maxConnections, 'only its idle connections and streams are closed for others');
  whole('callsInFlight', p.callsInFlight, 'maxCallsPerServer', limits.maxCallsPerServer, 'it can fill one server, whose calls others are then refused');
  whole('bytesInFlight', p.bytesInFlight, 'totalBytesInFlight', limits.totalBytesInFlight, 'it can hold every byte in flight, and others are refused');
  return { perPrincipal: { ...p }, notes };
}

const mib = (bytes: number) => (bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`);

export function renderShares(r: SharesReport): string {
  const p = r.perPrincipal;
  let out = '\nHTTP face, per principal (a token, an OAuth subject, else an address)\n';
  out += `  ${p.sessions} sessions, ${p.streams} streams, ${p.connections} connections, ${p.callsInFlight} calls and ${mib(p.bytesInFlight)} in flight; ${p.unauthenticatedConnections} connections per address before a request is authenticated\n`;
  for (const note of r.notes) out += `  note: ${note}\n`;
  return out;
}
