// Public API of the tool search engine. Pure (no I/O) except `embeddings.ts`, and independent
// of the rest of src/: the gateway feeds it ToolDocs and asks it for ranked keys.

export type { ToolDoc, SearchHit, SearchOptions, Searcher } from './types.js';
export { ToolSearchIndex, DEFAULT_RANKING, DEFAULT_LIMIT, type RankingParams } from './bm25f.js';
export { PlainBm25Index, plainTokens } from './baseline.js';
export { splitName, tokenize } from './tokenize.js';
export { analyzeName, analyzeText } from './analyze.js';
export { expansions, SYNONYM_WEIGHT } from './synonyms.js';
export { fieldTexts, searchableText } from './fields.js';
export { countTokens, estimateTokens, loadTokenCounter, serializeToolsForModel, toolListTokens, type ModelTool, type TokenCounter } from './tokens.js';
export { EmbeddingClient, HybridSearcher, VectorCache, cosine, fuseRankings, type EmbeddingsConfig, type HybridOptions, type LexicalSearcher } from './embeddings.js';
export { META_TOOLS, SEARCH_TOOLS_TOOL, CALL_TOOL_TOOL, SEARCH_TOOLS_NAME, CALL_TOOL_NAME } from './meta-tools.js';
