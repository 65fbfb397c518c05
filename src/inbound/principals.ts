// Who a request to the HTTP face is from, and what each of them holds of what the face shares:
// sessions, streams, connections, calls and bytes in flight. A principal is the authenticated
// client (a profile's token, or an OAuth subject), else "anonymous" per remote address (an IPv6 /64
// is one address: a host gets a whole /64). No I/O: counters and budgets; the endpoint sheds.

import { ByteBudget } from './budget.js';
import type { CallShare } from './context.js';

/** How much of each shared resource one principal may hold (limits.perPrincipal). */
export interface Shares {
  sessions: number;
  /** Open GET streams and subscriptions/listen streams. */
  streams: number;
  /** TCP connections on which it made the last request. */
  connections: number;
  /** Requests in flight across all its sessions. */
  callsInFlight: number;
  /** Bytes of requests and answers its sessions hold in the gateway at once. */
  bytesInFlight: number;
  /** Code-mode runs at once (codeMode.maxRunsPerPrincipal); none when absent. */
  codeRuns?: number;
  /** Per remote address: connections on which no request was authenticated yet. */
  unauthenticatedConnections: number;
}

/** bytesInFlight: half of limits.totalBytesInFlight's default. */
export const DEFAULT_SHARES: Readonly<Shares> = { sessions: 100, streams: 100, connections: 128, callsInFlight: 128, bytesInFlight: 64 * 1024 * 1024, unauthenticatedConnections: 32 };

const ANONYMOUS = 'anonymous:';

/**
 * The key of an anonymous principal: its remote address, an IPv4-mapped IPv6 address as IPv4,
 * other IPv6 addresses cut to their /64.
 */
export function anonymousKey(address: string | undefined): string {
  if (address === undefined || address === '') return `${ANONYMOUS}unknown`;
  if (!address.includes(':')) return ANONYMOUS + address;
  const lower = address.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped) return ANONYMOUS + mapped[1];
  return `${ANONYMOUS}${prefix64(lower.split('%')[0]!)}::/64`;
}

/** The first four groups of an IPv6 address, `::` expanded, leading zeros dropped. */
function prefix64(address: string): string {
  const [head = '', tail] = address.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = tail === undefined ? left : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+/, '') || '0')
    .join(':');
}

/** What one principal holds now. Counters only, touched where a resource is taken or given back. */
export class Holding {
  /** Connections from this address with no authenticated request yet (anonymous keys only). */
  unauthenticated = 0;
  connections = 0;
  sessions = 0;
  streams = 0;
  calls = 0;
  /** Code-mode runs (each also one of its calls). */
  runs = 0;
  /** Made on the first bytes it holds (Principals.budgetOf). */
  budget: ByteBudget | undefined;
  /** Made on its first request (Principals.callShare). */
  share: CallShare | undefined;

  constructor(
    readonly key: string,
    /** No token stands behind it: the cheapest to make, the first to be shed. */
    readonly anonymous: boolean,
  ) {}

  get empty(): boolean {
    return this.unauthenticated === 0 && this.connections === 0 && this.sessions === 0 && this.streams === 0 && this.calls === 0 && (this.budget === undefined || this.budget.used === 0);
  }
}

/** Every principal holding something, by key. A holding with nothing is forgotten. */
export class Principals {
  private readonly byKey = new Map<string, Holding>();
  /** What this replica enforces: the configured shares, or its part of them (split). */
  shares: Readonly<Shares>;
  private parts = 1;

  constructor(
    /** limits.perPrincipal, for the whole gateway (every replica together). */
    readonly configured: Readonly<Shares>,
    /** The gateway's budget, parent of every principal's. */
    private readonly gatewayBudget?: ByteBudget,
  ) {
    this.shares = configured;
  }

  /**
   * `replicas` share the principals' streams, calls and bytes in flight: each enforces its part
   * (at least 1), so together they hold no more than the limit. Not an exact count across them: that
   * would be a store round trip per call. Sessions are counted in the store at initialize instead,
   * and connections are each replica's own. A byte budget made before keeps the part it was made with.
   */
  split(replicas: number): void {
    if (replicas === this.parts) return;
    this.parts = replicas;
    const c = this.configured;
    const part = (n: number) => Math.max(1, Math.floor(n / replicas));
    this.shares = { ...c, streams: part(c.streams), callsInFlight: part(c.callsInFlight), bytesInFlight: part(c.bytesInFlight), codeRuns: c.codeRuns === undefined ? undefined : part(c.codeRuns) };
  }

  /** The holding of an authenticated principal (`principal` set) or of an address. */
  of(principal: string | undefined, address: string | undefined): Holding {
    return principal === undefined ? this.holding(anonymousKey(address), true) : this.holding(principal, false);
  }

  holding(key: string, anonymous: boolean): Holding {
    let h = this.byKey.get(key);
    if (h === undefined) this.byKey.set(key, (h = new Holding(key, anonymous)));
    return h;
  }

  /** The budget of bytes `h` may hold: its sessions' budgets and its requests without a session count here. */
  budgetOf(h: Holding): ByteBudget {
    h.budget ??= new ByteBudget(this.shares.bytesInFlight, 'this client', 'limits.perPrincipal.bytesInFlight', 'principal', this.gatewayBudget, () => this.release(h));
    return h.budget;
  }

  /** `h`'s calls in flight as a code-mode run's nested calls take them (each request holds one already), and its runs. */
  callShare(h: Holding): CallShare {
    h.share ??= {
      limit: this.shares.callsInFlight,
      take: () => {
        if (h.calls >= this.shares.callsInFlight) return false;
        h.calls++;
        return true;
      },
      give: () => {
        if (--h.calls === 0) this.release(h);
      },
      runLimit: this.shares.codeRuns ?? Infinity,
      takeRun: () => {
        if (h.runs >= (this.shares.codeRuns ?? Infinity)) return false;
        h.runs++;
        return true;
      },
      giveRun: () => {
        h.runs--;
      },
    };
    return h.share;
  }

  /** Forgets `h` once it holds nothing (a later request makes a new one). */
  release(h: Holding): void {
    if (h.empty && this.byKey.get(h.key) === h) this.byKey.delete(h.key);
  }

  get size(): number {
    return this.byKey.size;
  }
}
