// Values in servers' answers that name resources pass the policy of the list they would appear in:
// the profile's rules (on the URI as the client sees it) and the server's (on its own URI). Links,
// embedded resources and UI pointers in tool results, prompt messages, read contents, completion
// values of templates and of prompts; `total` kept honest; nothing judged where no rule judges.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildCatalog, type CatalogServerInput } from '../../../src/catalog/build.js';
import {
  judgeCompletion,
  judgePromptResult,
  judgeReadResult,
  judgeSamplingRequest,
  judgeToolResult,
  promptValueAllowed,
  templateValueAllowed,
  uriJudge,
  uriPairJudge,
} from '../../../src/catalog/relayed-uris.js';
import { expandTemplate } from '../../../src/catalog/uri-template.js';
import { viewFor } from '../../../src/catalog/view.js';
import type { ClientProfile, FilterRules, ServerConfig } from '../../../src/config/types.js';
import { canonicalUri } from '../../../src/policy/uri.js';
import { compileUriFilter } from '../../../src/policy/uri-filter.js';

const all: FilterRules = { allow: ['*'], deny: [] };
const SECRET = 'file:///secret/keys.txt';
const PUBLIC = 'file:///public/readme.txt';

function server(name: string, resources: FilterRules = all, prefix = name): CatalogServerInput {
  return {
    config: { kind: 'stdio', name, prefix, enabled: true, tools: all, prompts: all, resources } as unknown as ServerConfig,
    ready: true,
    lists: {
      tools: [],
      prompts: [{ name: 'show' }],
      resources: [
        { uri: PUBLIC, name: 'readme' },
        { uri: SECRET, name: 'keys' },
        { uri: 'file:///shared', name: 's' },
      ],
      resourceTemplates: [{ uriTemplate: 'file:///{path}', name: 'files' }],
    },
  };
}
const profile = (resources: FilterRules): ClientProfile => ({ name: 'p', tools: all, prompts: all, resources, readOnly: false, naming: { maxLength: 128 } });
const denySecret = profile({ allow: ['*'], deny: ['file:///secret/*'] });
const catalog = buildCatalog([server('fs'), server('other')], { separator: '__', mode: 'always' });

describe('the judge', () => {
  it('judges nothing where neither the profile nor the server has a rule', () => {
    expect(uriJudge(catalog, viewFor(catalog, undefined), 'fs')).toBeUndefined();
    expect(uriJudge(catalog, viewFor(catalog, profile(all)), 'fs')).toBeUndefined();
  });

  it("takes the profile's rules on the URI as the client sees it, the server's on its own", () => {
    const guarded = buildCatalog([server('fs'), server('other', { allow: ['*'], deny: ['file:///shared'] })], { separator: '__', mode: 'always' });
    const view = viewFor(guarded, profile({ allow: ['*'], deny: ['other+file:///public/*'] }));
    const fs = uriJudge(guarded, view, 'fs')!;
    const other = uriJudge(guarded, view, 'other')!;
    // `other`'s file:///public/readme.txt is renamed other+file:///… (fs had it first): the profile denies that spelling.
    expect([fs(PUBLIC), other(PUBLIC)]).toEqual([true, false]);
    // The server's own rule: file:///shared is other's to hide, not fs's.
    expect([fs('file:///shared'), other('file:///shared')]).toEqual([true, false]);
    // A re-spelling of a denied URI is denied too (canonical URIs).
    const deny = uriJudge(catalog, viewFor(catalog, denySecret), 'fs')!;
    expect(['FILE:///secret/keys.txt', 'file://localhost/secret/./keys.txt', 'file:///public/../secret/keys.txt'].map(deny)).toEqual([false, false, false]);
  });
});

describe('answers', () => {
  const judge = uriJudge(catalog, viewFor(catalog, denySecret), 'fs');

  it('a tool result loses links and embedded resources the client may not see, and a UI pointer to one', () => {
    const result = {
      content: [
        { type: 'text', text: `${SECRET} stays text: it names nothing the client can follow` },
        { type: 'resource_link', uri: PUBLIC, name: 'readme' },
        { type: 'resource_link', uri: SECRET, name: 'keys' },
        { type: 'resource', resource: { uri: SECRET, text: 'KEY' } },
        { type: 'resource', resource: { uri: PUBLIC, text: 'hi' } },
      ],
      _meta: { ui: { resourceUri: 'file:///secret/ui.html', visibility: ['app'] } },
    };
    const out = judgeToolResult(result, judge);
    expect(out.content.map((b: any) => b.uri ?? b.resource?.uri ?? 'text')).toEqual(['text', PUBLIC, PUBLIC]);
    expect(out._meta).toEqual({ ui: { visibility: ['app'] } });
    expect(result.content).toHaveLength(5); // the server's object is not changed
  });

  it('returns the very same object when nothing goes, or when nothing is judged', () => {
    const result = { content: [{ type: 'resource_link', uri: PUBLIC }] };
    expect(judgeToolResult(result, judge)).toBe(result);
    const secret = { content: [{ type: 'resource_link', uri: SECRET }] };
    expect(judgeToolResult(secret, undefined)).toBe(secret);
  });

  it('a prompt loses the messages that embed or link a denied resource', () => {
    const result = {
      description: 'd',
      messages: [
        { role: 'user', content: { type: 'text', text: 'hi' } },
        { role: 'user', content: { type: 'resource', resource: { uri: SECRET, text: 'KEY' } } },
        { role: 'user', content: { type: 'resource_link', uri: SECRET } },
        {
          role: 'user',
          content: [
            { type: 'resource_link', uri: SECRET },
            { type: 'resource_link', uri: PUBLIC },
          ],
        },
      ],
    };
    const out = judgePromptResult(result, judge);
    expect(out.messages).toEqual([result.messages[0], { role: 'user', content: [{ type: 'resource_link', uri: PUBLIC }] }]);
    expect(out.description).toBe('d');
  });

  it("a sampling request loses what names a denied resource, in tool results' content too; a message of nothing else goes", () => {
    const params = {
      maxTokens: 5,
      messages: [
        { role: 'user', content: { type: 'text', text: 'hi' } },
        { role: 'user', content: { type: 'resource_link', uri: SECRET } },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              toolUseId: 'a',
              content: [
                { type: 'resource_link', uri: SECRET },
                { type: 'resource_link', uri: PUBLIC },
              ],
            },
          ],
        },
        { role: 'user', content: [{ type: 'resource', resource: { uri: SECRET, text: 'KEY' } }] },
      ],
    };
    const out = judgeSamplingRequest(params, judge)!;
    expect(JSON.stringify(out)).not.toContain('secret');
    expect(out.messages).toEqual([params.messages[0], { role: 'user', content: [{ type: 'tool_result', toolUseId: 'a', content: [{ type: 'resource_link', uri: PUBLIC }] }] }]);
    expect(out.maxTokens).toBe(5);
    const clean = { messages: [params.messages[0]] };
    expect(judgeSamplingRequest(clean, judge)).toBe(clean);
  });

  it('a read answers only the contents the client may see', () => {
    const result = { contents: [{ uri: PUBLIC, text: 'hi' }, { uri: SECRET, text: 'KEY' }, { text: 'no uri: names nothing' }] };
    expect(judgeReadResult(result, judge).contents).toEqual([result.contents[0], result.contents[2]]);
  });
});

describe('completion values', () => {
  const view = viewFor(catalog, denySecret);
  const pair = uriPairJudge(catalog, view, 'fs')!;
  const template = { exposed: 'file:///{path}', original: 'file:///{path}', argument: 'path', context: undefined };

  it('of a template: a value goes when the URI it makes is denied, in either spelling', () => {
    const keep = (v: string) => templateValueAllowed(v, template, pair);
    expect(['public/readme.txt', 'secret/keys.txt', 'SECRET/../secret/keys.txt', 'secret%2Fkeys.txt', 'public', 'a b'].map(keep)).toEqual([true, false, false, false, true, true]);
    // A value that makes no URI anyone can read (above the root) goes too; one readable in one spelling stays.
    expect(['../secret/keys.txt', 'x#y'].map(keep)).toEqual([false, true]);
  });

  it('of a template: the other variables come from the context the client gave', () => {
    const t = { exposed: 'file:///{dir}/{name}', original: 'file:///{dir}/{name}', argument: 'name', context: { dir: 'secret' } };
    expect(templateValueAllowed('keys.txt', t, pair)).toBe(false);
    expect(templateValueAllowed('keys.txt', { ...t, context: { dir: 'public' } }, pair)).toBe(true);
  });

  it('of a template: a kept value never makes a URI the rules deny, in either spelling (property)', () => {
    const deny = compileUriFilter({ allow: ['*'], deny: ['file:///secret/*'] });
    const segment = fc.constantFrom('secret', 'public', 'SECRET', '..', '.', '', '%73ecret', 'keys.txt', 'a b');
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 4 }), fc.boolean(), (parts, lead) => {
        const value = (lead ? '/' : '') + parts.join('/');
        if (!templateValueAllowed(value, template, pair)) return;
        for (const mode of ['rfc6570', 'raw'] as const) {
          const uri = expandTemplate('file:///{path}', { path: value }, mode);
          if (canonicalUri(uri).ok) expect(deny(uri), `${mode}: ${uri}`).toBe(true);
        }
      }),
    );
  });

  it('of a prompt: a value that the gateway would read as a resource is judged like a read; others pass', () => {
    const keep = (v: string) => promptValueAllowed(v, catalog, view, 'fs');
    expect([PUBLIC, SECRET, 'file://LOCALHOST/secret/keys.txt', 'plain words', 'https://example.com/'].map(keep)).toEqual([true, false, false, true, true]);
  });

  it('`total` is recounted when the values were all there was, dropped when there are more', () => {
    const keep = (v: string) => v !== 'b';
    expect(judgeCompletion({ completion: { values: ['a', 'b'], total: 2, hasMore: false } }, keep)).toEqual({ completion: { values: ['a'], total: 1, hasMore: false } });
    expect(judgeCompletion({ completion: { values: ['a', 'b'], total: 40, hasMore: true } }, keep)).toEqual({ completion: { values: ['a'], hasMore: true } });
    expect(judgeCompletion({ completion: { values: ['a', 'b'], total: 40 } }, keep)).toEqual({ completion: { values: ['a'] } });
    const untouched = { completion: { values: ['a'], total: 7 } };
    expect(judgeCompletion(untouched, keep)).toBe(untouched);
  });
});
