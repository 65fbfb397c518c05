// Every relative link in README.md and docs/*.md leads somewhere: the file exists and, for a link
// to a Markdown heading (`page.md#anchor`, `#anchor`), the heading does. Moving text between the
// README and docs/ is where links break silently, so this reads every page as GitHub renders it.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../helpers/paths.js';

const pages = [
  'README.md',
  ...readdirSync(path.join(repoRoot, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** The page's text without fenced blocks and inline code, where `](…)` is not a link. */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchors for a page's headings: lower case, punctuation dropped, spaces as `-`, repeats numbered. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of text.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} +(.+?) *#* *$/gm)) {
    const slug = m[1]!
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

/** Every `[text](target)` and `![alt](target)` of a page whose target is in this repository. */
function links(text: string): string[] {
  return [...prose(text).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t));
}

describe('relative links in README.md and docs/*.md', () => {
  it('finds the pages and their links', () => {
    expect(pages).toContain('docs/security.md');
    expect(links(readFileSync(path.join(repoRoot, 'README.md'), 'utf8')).length).toBeGreaterThan(10);
  });

  it('anchors are made as GitHub makes them', () => {
    expect(anchors('# A\n## Metrics (`GET /metrics`)\n### `codeMode`\n## Tool search: any size\n## A\n')).toEqual(new Set(['a', 'metrics-get-metrics', 'codemode', 'tool-search-any-size', 'a-1']));
  });

  it.each(pages)('%s: every link to a file leads to one, and every anchor to a heading', (page) => {
    const text = readFileSync(path.join(repoRoot, page), 'utf8');
    const broken: string[] = [];
    for (const link of links(text)) {
      const [file, anchor] = link.split('#') as [string, string | undefined];
      const target = file === '' ? path.join(repoRoot, page) : path.resolve(path.dirname(path.join(repoRoot, page)), decodeURIComponent(file));
      if (!existsSync(target)) {
        broken.push(`${link}: no file ${path.relative(repoRoot, target)}`);
        continue;
      }
      if (anchor !== undefined && target.endsWith('.md') && !anchors(readFileSync(target, 'utf8')).has(anchor)) {
        broken.push(`${link}: no heading #${anchor} in ${path.relative(repoRoot, target)}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
