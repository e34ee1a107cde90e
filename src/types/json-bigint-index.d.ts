/** The json-bigint package's entry by its file path (the bare name is aliased in the app's bundle). */
declare module 'json-bigint/index.js' {
  import jsonBigint from 'json-bigint';
  export default jsonBigint;
}
