// The page's Web Worker: it runs web/engine.wasm (app/engine), which does the work that the page
// hands it (app/internal/engine) off the page's thread. URLs are relative to this file, so that a
// site served under a sub-path finds them.
"use strict";
importScripts("../wasm_exec.js");

// Messages that come before Go has set its handler wait for it.
const early = [];
self.onmessage = (e) => early.push(e);

(async () => {
  try {
    const go = new Go();
    let module;
    try {
      module = await WebAssembly.instantiateStreaming(fetch("engine.wasm"), go.importObject);
    } catch {
      // A host that serves .wasm with another type than application/wasm.
      const bytes = await (await fetch("engine.wasm")).arrayBuffer();
      module = await WebAssembly.instantiate(bytes, go.importObject);
    }
    const exited = go.run(module.instance); // main sets self.onmessage before it returns here
    for (const e of early) self.onmessage(e);
    early.length = 0;
    // The program never ends on its own: an end is a crash (out of memory), which the page
    // must hear of, or its calls would wait for ever.
    await exited;
    self.postMessage({ failed: "its program ended (a crash: see the console)" });
  } catch (err) {
    self.postMessage({ failed: "its module did not load: " + String(err) });
  }
})();
