// The shape of an allow/deny rule pair, as the policy layer needs it. The config's own type has
// the same shape (structural typing joins them); defining it here keeps policy free of config.

export interface FilterRules {
  /** Globs of what is allowed; empty allows nothing. */
  readonly allow: readonly string[];
  /** Globs of what is denied; deny wins over allow. */
  readonly deny: readonly string[];
}

/** Resource rules: with `fileCase: insensitive`, `file:` URIs are compared ignoring case (uri-case.ts). */
export interface UriFilterRules extends FilterRules {
  readonly fileCase?: 'sensitive' | 'insensitive';
}
