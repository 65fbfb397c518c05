import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { splitName, tokenize } from '../../../src/search/tokenize.js';

const WORD = /^[\p{L}\p{M}\p{N}]+$/u;
const lowerWord = fc.stringMatching(/^[a-z]{1,10}$/);
const words = fc.array(lowerWord, { minLength: 1, maxLength: 6 });
// In camel and Pascal case, one-letter words are ambiguous ("AB" is an acronym).
const longWords = fc.array(fc.stringMatching(/^[a-z]{2,10}$/), { minLength: 1, maxLength: 6 });
const cap = (w: string): string => w[0]!.toUpperCase() + w.slice(1);
const anyText = fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }), fc.string({ unit: 'grapheme', maxLength: 200 }), fc.string({ maxLength: 200 }));

describe('splitName', () => {
  it('splits the naming conventions tools use', () => {
    expect(splitName('getHTTPResponse')).toEqual(['get', 'http', 'response']);
    expect(splitName('list_pull_requests')).toEqual(['list', 'pull', 'requests']);
    expect(splitName('browser-take-screenshot')).toEqual(['browser', 'take', 'screenshot']);
    expect(splitName('GetFileContents')).toEqual(['get', 'file', 'contents']);
    expect(splitName('linear_getIssueById')).toEqual(['linear', 'get', 'issue', 'by', 'id']);
    expect(splitName('API-post-search')).toEqual(['api', 'post', 'search']);
    expect(splitName('files.read/v2')).toEqual(['files', 'read', 'v', '2']);
    expect(splitName('ec2DescribeInstances')).toEqual(['ec', '2', 'describe', 'instances']);
    expect(splitName('parseJSON')).toEqual(['parse', 'json']);
    expect(splitName('HTTP2Server')).toEqual(['http', '2', 'server']);
  });

  it('keeps an acronym\'s plural whole ("PRs" is prs, not P and Rs), and a capital S its own word', () => {
    expect(splitName('PRs')).toEqual(['prs']);
    expect(splitName('getIDsByName')).toEqual(['get', 'ids', 'by', 'name']);
    expect(splitName('listURLs')).toEqual(['list', 'urls']);
    expect(tokenize('what open PRs does it have, and which VMs')).toEqual(['what', 'open', 'prs', 'does', 'it', 'have', 'and', 'which', 'vms']);
    expect(splitName('HTTPSettings')).toEqual(['http', 'settings']);
    expect(splitName('HTTPS')).toEqual(['https']);
    expect(splitName('iOS')).toEqual(['i', 'os']);
  });

  it('yields the words of any snake, kebab, dotted, camel or Pascal join', () => {
    fc.assert(
      fc.property(words, (ws) => {
        expect(splitName(ws.join('_'))).toEqual(ws);
        expect(splitName(ws.join('-'))).toEqual(ws);
        expect(splitName(ws.join('.'))).toEqual(ws);
        expect(splitName(ws.join('/'))).toEqual(ws);
      }),
    );
    fc.assert(
      fc.property(longWords, (ws) => {
        expect(splitName(ws[0]! + ws.slice(1).map(cap).join(''))).toEqual(ws);
        expect(splitName(ws.map(cap).join(''))).toEqual(ws);
      }),
    );
  });

  it('is idempotent: splitting the snake join of its words gives the same words', () => {
    fc.assert(
      fc.property(anyText, (s) => {
        const once = splitName(s);
        expect(splitName(once.join('_'))).toEqual(once);
      }),
      { numRuns: 2000 },
    );
  });

  it('folds case and Latin diacritics', () => {
    expect(splitName('CaféNaïve_ÜBER')).toEqual(['cafe', 'naive', 'uber']);
  });
});

describe('tokenize', () => {
  it('never throws, and every token is a non-empty lower-case word', () => {
    fc.assert(
      fc.property(anyText, (s) => {
        for (const t of tokenize(s)) {
          expect(t.length).toBeGreaterThan(0);
          expect(t).toBe(t.toLowerCase());
          expect(t).toMatch(WORD);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('splits identifiers inside text and keeps letter-digit runs whole too', () => {
    expect(tokenize('Use get_file_contents, then listPullRequests.')).toEqual(['use', 'get', 'file', 'contents', 'then', 'list', 'pull', 'requests']);
    expect(tokenize('an S3 bucket')).toEqual(['an', 's', '3', 's3', 'bucket']);
  });

  it('turns Han, Kana and Hangul runs into character bigrams', () => {
    expect(tokenize('搜索文件')).toEqual(['搜索', '索文', '文件']);
    expect(tokenize('ファイル')).toEqual(['ファ', 'ァイ', 'イル']);
    expect(tokenize('파일 검색')).toEqual(['파일', '검색']);
    expect(tokenize('字')).toEqual(['字']);
    expect(tokenize('GitHub上的问题')).toEqual(['git', 'hub', '上的', '的问', '问题']);
  });

  it('keeps words of spaced scripts whole, lower-cased', () => {
    expect(tokenize('Создать задачу')).toEqual(['создать', 'задачу']);
    expect(tokenize('إنشاء ملف')).toEqual(['إنشاء', 'ملف']);
    expect(tokenize('Größe ändern')).toEqual(['grosse', 'andern']);
  });

  it('makes no tokens of emoji, symbols and punctuation', () => {
    expect(tokenize('🎯 ⚠️ — ** !! ->')).toEqual([]);
    expect(tokenize('')).toEqual([]);
  });

  it('treats full-width forms like their ASCII letters', () => {
    expect(tokenize('ＧＩＴＨＵＢ')).toEqual(['github']);
  });
});
