/**
 * A build plugin that keeps string evaluation out of the extension's bundles.
 *
 * zod 4 probes `new Function("")` once (`util.allowsEval`) and, when that succeeds, compiles its object
 * parsers with `new Function`. Extension pages forbid it anyway (`script-src 'self'`), but the
 * main-world script runs under the page's own policy: on a page without a CSP zod would compile code
 * there, and on a page with a strict one the caught probe is still reported as a CSP violation. The
 * plugin makes the probe answer "no" without running it, so zod takes its interpreted path everywhere
 * (the parsed messages are small) and no bundle calls the Function constructor (web-ext lint agrees).
 *
 * Modules go through `transform`; the content and main-world scripts, which crxjs bundles on its own as
 * minified IIFEs (without the build's plugins) and adds as assets, are rewritten in `generateBundle`.
 * The build fails when a probe is left in any emitted script (a zod upgrade changed its shape), so the
 * guarantee never lapses silently.
 */
import type { Plugin } from 'vite';

const ZOD_UTIL = /[\\/]node_modules[\\/]zod[\\/]v4[\\/]core[\\/]util\.js$/;
/** The probe's body in zod 4.x: `try { const F = Function; new F(""); return true; } catch (_) { return false; }`. */
const PROBE = /try\s*\{\s*const F = Function;\s*new F\(""\);\s*return true;\s*\}\s*catch\s*\(_\)\s*\{\s*return false;\s*\}/;
/** The same probe once minified: `try{return Function(``),!0}catch{return!1}`. */
const MINIFIED_PROBE = /try\{return Function\((``|""|'')\),!0\}catch(\(\w+\))?\{return!1\}/g;
/** Any call of the Function constructor with a literal empty body: what must not be left anywhere. */
const ANY_PROBE = /\bFunction\(\s*(``|""|'')\s*\)|new F\(""\)/;

export function noStringEvaluation(): Plugin {
  return {
    name: 'no-string-evaluation',
    enforce: 'pre',
    transform(code, id) {
      if (!ZOD_UTIL.test(id)) return null;
      if (!PROBE.test(code)) {
        this.error(`no-string-evaluation: zod's allowsEval probe not found in ${id}; update build/vite-no-eval.ts for this zod version`);
      }
      return { code: code.replace(PROBE, 'return false;'), map: null };
    },
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const file of Object.values(bundle)) {
          if (!file.fileName.endsWith('.js')) continue;
          if (file.type === 'chunk') file.code = file.code.replace(MINIFIED_PROBE, 'return!1');
          else if (typeof file.source === 'string') file.source = file.source.replace(MINIFIED_PROBE, 'return!1');
          const text = file.type === 'chunk' ? file.code : String(file.source);
          if (ANY_PROBE.test(text)) {
            this.error(`no-string-evaluation: ${file.fileName} still calls the Function constructor; update build/vite-no-eval.ts`);
          }
        }
      },
    },
  };
}
