/**
 * What a failure says after the path it opens with (`<path>: <words>`), or undefined when it does
 * not open with that path. statecraft's own file errors name their file first (regular-file.ts,
 * the chain's refusals); a caller that names the file itself says only the rest, so no message
 * names a file twice.
 */
export function wordsAfterPath(failure: unknown, path: string): string | undefined {
  const message = failure instanceof Error ? failure.message : String(failure);
  return message.startsWith(`${path}: `) ? message.slice(path.length + 2) : undefined;
}
