// wasmstart.js runs as soon as it arrives (async, from the page's head), while the page is still
// being parsed: it starts compiling app.wasm as it downloads, so that app.js, which runs once the
// whole page is parsed, finds it compiled or nearly so. The head's preload has already asked for
// app.wasm; this fetch takes that answer. app.js loads app.wasm itself, with its own messages,
// when this did not work (an old browser, a failed download).
"use strict";
var backoffcalcCompiled = (function () {
  const script = document.currentScript;
  if (!script || !script.dataset.wasm || typeof WebAssembly.compileStreaming !== "function") {
    return null;
  }
  const compiled = WebAssembly.compileStreaming(fetch(script.dataset.wasm));
  compiled.catch(() => {}); // app.js reports the failure when it loads app.wasm again
  return compiled;
})();
