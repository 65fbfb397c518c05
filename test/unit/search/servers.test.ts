import { describe, expect, it } from 'vitest';
import { ServerContext } from '../../../src/search/servers.js';
import { DEFAULT_RANKING, ToolSearchIndex, type ToolDoc } from '../../../src/search/index.js';

const tool = (server: string, name: string, description: string): ToolDoc => ({ key: `${server}__${name}`, server, name, description });

describe('servers a query names', () => {
  it('names a server with the best weight of a term in its name', () => {
    const servers = new ServerContext();
    servers.add('gmail', 'gmail__send', ['send']);
    servers.add('web-search', 'web-search__search', ['search']);
    expect(servers.named(new Map([['gmail', 1]]))).toEqual(new Map([['gmail', 1]]));
    expect(
      servers.named(
        new Map([
          ['gmail', 0.45],
          ['web', 0.2],
          ['search', 0.6],
        ]),
      ),
    ).toEqual(
      new Map([
        ['gmail', 0.45],
        ['web-search', 0.6],
      ]),
    );
    expect(servers.named(new Map([['mail', 1]])).size).toBe(0);
  });

  it('favours the tools of a server the request names, beyond its name as indexed text', () => {
    const docs = [tool('gmail', 'send_message', 'Send a message.'), tool('chatter', 'send_message', 'Send a message.')];
    const index = new ToolSearchIndex();
    const off = new ToolSearchIndex({ ...DEFAULT_RANKING, serverMention: 0 });
    for (const d of docs) {
      index.upsert(d);
      off.upsert(d);
    }
    const ratio = (hits: { key: string; score: number }[]) => hits[0]!.score / hits.find((h) => h.key === 'chatter__send_message')!.score;
    const named = index.search('send a message by gmail');
    expect(named[0]!.key).toBe('gmail__send_message');
    expect(ratio(named)).toBeGreaterThan(ratio(off.search('send a message by gmail')));
    expect(ratio(off.search('send a message by gmail'))).toBeGreaterThan(1);
  });
});
