// Loaded into every StrykerJS process by scripts/mutation.mjs (NODE_OPTIONS=--require). Mocha 12
// ships its command-line helpers as .cjs files; the mocha runner of StrykerJS 10 requires them
// without an extension. This retries such a failed require with ".cjs".
/* eslint-disable @typescript-eslint/no-require-imports, no-undef -- a CommonJS preload script */
const Module = require('node:module');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  try {
    return resolve.call(this, request, ...rest);
  } catch (err) {
    if (/[\\/]mocha[\\/]lib[\\/]cli[\\/][\w-]+$/.test(request))
      return resolve.call(this, `${request}.cjs`, ...rest);
    throw err;
  }
};
