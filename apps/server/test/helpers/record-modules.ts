/**
 * Loaded with `--import` into a server process under test: appends the URL of every module the
 * process resolves (ES modules and `require` alike) to the file named by RECORD_MODULES_TO.
 */
import { appendFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const file = process.env.RECORD_MODULES_TO;
if (file) {
  registerHooks({
    resolve(specifier, context, nextResolve) {
      const resolved = nextResolve(specifier, context);
      appendFileSync(file, `${resolved.url}\n`);
      return resolved;
    },
  });
}
