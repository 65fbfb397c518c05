// A tool definition's searchable fields, as index terms: name words, title, description,
// parameter names and parameter descriptions (nested schemas included, bounded), server name.
// Pure: it reads only the document, and bounds work on hostile schemas (depth, count, length).

import { analyzeText, nameTermsShared } from './analyze.js';
import type { ToolDoc } from './types.js';

export const FIELD_NAMES = ['name', 'title', 'summary', 'description', 'params', 'paramText', 'server'] as const;
export type FieldName = (typeof FIELD_NAMES)[number];
export const FIELD_COUNT = FIELD_NAMES.length;

/** Bounds on what one definition may contribute: a schema is untrusted input like any text. */
const MAX_TEXT = 4_000;
const MAX_DEPTH = 4;
const MAX_PARAMS = 64;

export interface FieldTexts {
  name: string;
  title: string;
  description: string;
  params: string[];
  paramText: string[];
  server: string;
}

/** The raw text of each field (also what embeddings and hashes are computed from). */
export function fieldTexts(doc: ToolDoc): FieldTexts {
  const params: string[] = [];
  const paramText: string[] = [];
  walkSchema(doc.inputSchema, 0, params, paramText);
  const annotations = doc.annotations as { title?: unknown } | undefined;
  const title = typeof doc.title === 'string' ? doc.title : typeof annotations?.title === 'string' ? annotations.title : '';
  return {
    name: doc.name,
    title: title.slice(0, MAX_TEXT),
    description: (doc.description ?? '').slice(0, MAX_TEXT),
    params,
    paramText,
    server: doc.server,
  };
}

function walkSchema(schema: unknown, depth: number, names: string[], texts: string[]): void {
  if (depth > MAX_DEPTH || schema === null || typeof schema !== 'object') return;
  const s = schema as Record<string, unknown>;
  const props = s.properties;
  if (props !== null && typeof props === 'object' && !Array.isArray(props)) {
    for (const [key, value] of Object.entries(props as Record<string, unknown>)) {
      if (names.length >= MAX_PARAMS) return;
      names.push(key);
      const v = value as Record<string, unknown> | null;
      if (v !== null && typeof v === 'object') {
        if (typeof v.description === 'string') texts.push(v.description.slice(0, MAX_TEXT / 4));
        if (typeof v.title === 'string') texts.push(v.title.slice(0, 200));
      }
      walkSchema(value, depth + 1, names, texts);
    }
  }
  if (s.items !== undefined) walkSchema(s.items, depth + 1, names, texts);
  for (const k of ['anyOf', 'oneOf', 'allOf'] as const) {
    const alts = s[k];
    if (Array.isArray(alts)) for (const alt of alts.slice(0, 8)) walkSchema(alt, depth + 1, names, texts);
  }
}

/**
 * The first sentence of a description says what the tool does; the rest is usage notes, which
 * often name other tools and cases ("use X first", "fails when Y") that a query should not hit
 * as hard. Returns [summary, rest].
 */
export function splitSummary(description: string): [string, string] {
  const text = description.trim();
  // A sentence end: . ! ? not after a lone number ("1. Retrieves"), or a blank line. The
  // summary runs to the first end that leaves it at least four words.
  const end = /(?<!(?:^|\s)\d{1,2})[.!?。](?=\s|$)|\n\s*\n/g;
  for (let m = end.exec(text); m !== null && m.index < 400; m = end.exec(text)) {
    const head = text.slice(0, m.index + 1);
    if ((head.match(/[\p{L}\p{N}]+/gu) ?? []).length >= 4) return [head, text.slice(m.index + 1)];
  }
  return text.length <= 300 ? [text, ''] : [text.slice(0, 300), text.slice(300)];
}

/** Index terms per field, in FIELD_NAMES order. */
export function fieldTerms(doc: ToolDoc): (readonly string[])[] {
  const t = fieldTexts(doc);
  const [summary, rest] = splitSummary(t.description);
  return [
    nameTermsShared(t.name),
    analyzeText(t.title),
    analyzeText(summary),
    analyzeText(rest),
    t.params.flatMap((p) => nameTermsShared(p)),
    t.paramText.flatMap((p) => analyzeText(p)),
    nameTermsShared(t.server),
  ];
}

/** One string with everything searchable, for embeddings and the plain baseline. */
export function searchableText(doc: ToolDoc): string {
  const t = fieldTexts(doc);
  return [t.server, t.name, t.title, t.description, t.params.join(' ')].filter((x) => x.length > 0).join('\n');
}
