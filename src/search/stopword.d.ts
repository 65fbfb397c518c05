// Types for the one export of `stopword` that the analyzer uses (the package ships none).
declare module 'stopword' {
  export const eng: readonly string[];
}
