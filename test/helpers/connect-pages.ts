// A stand-in for the connect pages (h33-connect builds the real ones): a ConnectAsker whose links
// are recorded and whose `connected` resolves when the test stores a credential, as the page would.
import { EventEmitter, once } from 'node:events';
import type { ConnectAsker, ConnectLink } from '../../src/router/connect-ask.js';
import type { Credential, CredentialStore } from '../../src/state/credentials.js';

/** Stands in for the connect pages: links it handed out, and `connected` resolving when the test stores a credential. */
export class FakeConnectPages implements ConnectAsker {
  readonly links: (ConnectLink & { user: string; server: string })[] = [];
  private readonly stored = new EventEmitter();
  constructor(private readonly store: CredentialStore) {}
  async link(user: string, server: string): Promise<ConnectLink> {
    const n = this.links.length;
    const link = { url: `http://gateway.test/connect/${server}?link=${n}`, elicitationId: `connect-${n}`, expiresAt: Date.now() + 60_000, message: `Connect your ${server} account` };
    this.links.push({ ...link, user, server });
    return link;
  }
  async connected(user: string, server: string, signal: AbortSignal): Promise<void> {
    if ((await this.store.get(user, server)) !== undefined) return;
    await once(this.stored, `${user}\u0000${server}`, { signal });
  }
  /** What the page does when the user submits their secret. */
  submit(user: string, server: string, values: Record<string, string>): Promise<void> {
    return this.connect(user, server, { kind: 'secrets', values });
  }
  /** What the page does once the user's connect (secret form or OAuth flow) gave a credential. */
  async connect(user: string, server: string, credential: Credential): Promise<void> {
    await this.store.put(user, server, credential);
    this.stored.emit(`${user}\u0000${server}`);
  }
}
