// The HTTP face's port, bound before anything else starts: `serve` binds first, then spawns the
// servers, so a port in use is reported at once and no server process was ever started for
// nothing. Connections that arrive while the servers start are held unread (up to a bound) and
// handed to the endpoint when it opens on the same socket (http-endpoint.ts listens on it).

import { createServer, type Server, type Socket } from 'node:net';

export interface BoundPort {
  /** A listening net.Server; the HTTP endpoint takes its handle over (`server.listen(bound.server)`). */
  readonly server: Server;
  /** Stops holding and hands each connection held so far, then every later one, to `accept`. */
  handOver(accept: (socket: Socket) => void): void;
}

/** Binds host:port, or throws the listen error (EADDRINUSE and the like: see bindFailure). */
export async function bindPort(host: string, port: number, maxHeld: number): Promise<BoundPort> {
  const held: Socket[] = [];
  // pauseOnConnect: nothing is read from a held connection before the endpoint has it.
  const server = createServer({ pauseOnConnect: true }, (socket) => {
    if (held.length >= maxHeld) socket.destroy();
    else held.push(socket);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    server,
    handOver(accept) {
      server.removeAllListeners('connection');
      for (const socket of held.splice(0)) if (!socket.destroyed) accept(socket);
    },
  };
}

/** What to tell the operator when the port cannot be bound, with what to do instead. */
export function bindFailure(err: unknown, host: string, port: number): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const at = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const other = `${host.includes(':') ? `[${host}]` : host}`;
  switch (code) {
    case 'EADDRINUSE':
      return (
        `cannot listen on ${at}: the port is in use (another switchboard, or another program). ` +
        `Serve on another port: --http ${other}:${port === 65535 ? port - 1 : port + 1} (or listen.port in the config), ` +
        `or on any free one: --http ${other}:0 (the URL is printed).`
      );
    case 'EACCES':
      return `cannot listen on ${at}: permission denied${port > 0 && port < 1024 ? ' (ports below 1024 need privileges)' : ''}. Use another port, e.g. --http ${other}:8808, or --http ${other}:0 for any free one.`;
    case 'EADDRNOTAVAIL':
      return `cannot listen on ${at}: ${host} is not an address of this machine (listen.host). Use 127.0.0.1, or 0.0.0.0 for every interface.`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot listen on ${at}: the host name ${host} does not resolve (listen.host). Use an address such as 127.0.0.1.`;
    default:
      return `cannot listen on ${at}: ${err instanceof Error ? err.message : String(err)}`;
  }
}
