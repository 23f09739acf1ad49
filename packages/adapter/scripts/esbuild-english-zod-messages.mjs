// An esbuild plugin shared by every bundle of the repository (the CLI's and each provider
// adapter's): zod re-exports every locale it ships (`z.locales`, ~370 kB) from its entry point, so
// esbuild cannot leave them out, and each start of a bundle then reads (and the CLI hashes) them.
// statecraft sets no locale: its messages are zod's English default, which zod imports directly.
// The locale index is replaced by one that exports English alone; `z.locales.<other>` would be
// undefined in a bundle (decision 0013).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export function englishZodMessagesOnly() {
  const english = createRequire(import.meta.url).resolve('zod/v4/locales/en.js');
  return {
    name: 'english-zod-messages-only',
    setup(plugin) {
      plugin.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
        args.importer.includes(join('node_modules', 'zod')) ? { path: 'zod-locales-english-only', namespace: 'statecraft' } : undefined,
      );
      plugin.onLoad({ filter: /.*/, namespace: 'statecraft' }, () => ({
        contents: `export { default as en } from ${JSON.stringify(english)};`,
        resolveDir: dirname(english),
      }));
    },
  };
}
