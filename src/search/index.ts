// Public API of the tool search engine (pure: the optional embeddings live in embeddings.ts,
// imported by those who want them, since they do I/O), independent
// of the rest of src/: the gateway feeds it ToolDocs and asks it for ranked keys.
//
//   const index = new ToolSearchIndex();
//   index.syncServer('github', docs);                 // after list_changed / reconnect / reload
//   index.remove('github__create_issue');             // or upsert(doc) one at a time
//   index.search('open a bug', { limit: 5, accept: (key) => profile.allows(key) });
//     → [{ key: 'github__create_issue', score: 4.1 }, ...] best first, ties by key
//   toolListTokens(tools, await loadTokenCounter())   // over a profile's budget? (o200k)
//   META_TOOLS                                        // search_tools + call_tool definitions

export type { ToolDoc, SearchHit, SearchOptions, Searcher } from './types.js';
export { ToolSearchIndex, DEFAULT_RANKING, DEFAULT_LIMIT, type RankingParams } from './bm25f.js';
export { selectKeyTerms } from './keyterms.js';
export { PlainBm25Index, plainTokens } from './baseline.js';
export { splitName, tokenize } from './tokenize.js';
export { analyzeName, analyzeText } from './analyze.js';
export { fieldTexts, searchableText } from './fields.js';
export { countTokens, estimateTokens, loadTokenCounter, serializeToolsForModel, toolListTokens, type ModelTool, type TokenCounter } from './tokens.js';
export { META_TOOLS, SEARCH_TOOLS_TOOL, CALL_TOOL_TOOL, SEARCH_TOOLS_NAME, CALL_TOOL_NAME } from './meta-tools.js';
