/**
 * A CommonJS package's exports from a dynamic import, however it was loaded: node gives them by
 * name, but the CLI's bundle (esbuild, split into chunks) gives them only as `default`.
 */
export function commonJsExports<T extends object>(loaded: T): T {
  const inner = (loaded as { default?: unknown }).default;
  return inner !== null && typeof inner === 'object' && !('then' in inner) && Object.keys(loaded).length === 1 ? (inner as T) : loaded;
}
